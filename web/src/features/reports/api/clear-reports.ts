// DELETE /api/domains/:id/uri-reports (accepted at once, 202: the clearing runs in the background) and
// GET /api/domains/:id/uri-reports/clear, its progress, polled every second while it runs. When it is done
// the domain's report queries are refetched.
import { type ReportClearJob, reportClearJobSchema } from '@csp/shared/schemas/report';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import * as z from 'zod';
import { api, apiGet, apiRequest, pathParam } from '@/lib/api-client';
import { reportsQueryKey } from '@/lib/query-keys';

const POLL_MS = 1000;
const clearStateSchema = z.object({ job: reportClearJobSchema.nullable() });

export const reportClearQueryKey = (domainId: string) => ['domains', domainId, 'uri-reports-clear'] as const;

export async function getReportClear(domainId: string): Promise<ReportClearJob | null> {
  const body = await apiGet(
    api.domains[':id']['uri-reports'].clear.$get({ param: { id: pathParam(domainId) } }),
  );
  // A 401 on a read is an empty result (spec section 7): no clearing to follow.
  return body === null ? null : clearStateSchema.parse(body).job;
}

export const reportClearQueryOptions = (domainId: string) =>
  queryOptions({
    queryKey: reportClearQueryKey(domainId),
    queryFn: () => getReportClear(domainId),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? POLL_MS : false),
  });

/** The domain's clearing, polled while it runs; `onDone` once a clearing seen running has finished. */
export function useReportClear(domainId: string, onDone: () => void) {
  const queryClient = useQueryClient();
  const query = useQuery(reportClearQueryOptions(domainId));
  const wasRunning = useRef(false);
  const state = query.data?.state;
  useEffect(() => {
    if (state === 'running') wasRunning.current = true;
    else if (state === 'done' && wasRunning.current) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ queryKey: reportsQueryKey(domainId) });
      onDone();
    }
  }, [state, domainId, queryClient, onDone]);
  return query;
}

export function useClearReports(domainId: string, callbacks: { onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(api.domains[':id']['uri-reports'].$delete({ param: { id: pathParam(domainId) } })),
    onSuccess: (job) => queryClient.setQueryData(reportClearQueryKey(domainId), job),
    onError: (error) => callbacks.onError?.(error),
  });
}
