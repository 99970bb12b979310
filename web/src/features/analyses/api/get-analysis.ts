// GET /api/csp/analyze/:id → {success, analysis}. Polled every 2 s while the analysis is pending or
// running; polling stops on completed or failed, and on an error (spec section 4).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, api, apiGet, pathParam } from '@/lib/api-client';
import { ANALYSIS_POLL_MS, isPolledStatus } from '../utils/progress';
import { analysesQueryKey } from './get-analyses';

export const analysisQueryKey = (id: string) => [...analysesQueryKey, 'detail', id] as const;

export async function getAnalysis(id: string) {
  const res = await apiGet(api.csp.analyze[':id'].$get({ param: { id: pathParam(id) } }));
  return res?.analysis ?? null;
}

export function getAnalysisQueryOptions(id: string) {
  return queryOptions({
    queryKey: analysisQueryKey(id),
    queryFn: () => getAnalysis(id),
    refetchInterval: (query) => {
      if (query.state.status === 'error') return false;
      const analysis = query.state.data;
      return analysis && isPolledStatus(analysis.status) ? ANALYSIS_POLL_MS : false;
    },
  });
}

export function isNotFoundError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function useAnalysis(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  const query = useQuery({ ...getAnalysisQueryOptions(id), enabled: enabled && Boolean(id) });
  const { error } = query;
  useEffect(() => {
    // Spec section 8: a polling error is logged to the console and polling stops (refetchInterval above).
    if (error && !isNotFoundError(error)) console.warn('Stopped polling the analysis', error);
  }, [error]);
  return query;
}
