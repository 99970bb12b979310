// GET /api/domains/:id/analyses: the domain's analyses, newest first. Polled every 2 s while one of them is
// in progress, so the domain screen's progress box, stats and history stay current (spec section 7).

import { byCodeUnits } from '@csp/shared/text/order';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useFetchFailureToast } from '@/hooks/use-fetch-failure-toast';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { ANALYSIS_POLL_MS, isInProgressStatus } from '../utils/progress';
import { analysesQueryKey } from './get-analyses';

export const domainAnalysesQueryKey = (domainId: string) =>
  [...analysesQueryKey, 'domain', domainId] as const;

export async function getDomainAnalyses(domainId: string) {
  const list = await apiGet(api.domains[':id'].analyses.$get({ param: { id: pathParam(domainId) } }));
  return [...(list ?? [])].sort((a, b) => byCodeUnits(b.createdAt, a.createdAt));
}

export function getDomainAnalysesQueryOptions(domainId: string) {
  return queryOptions({
    queryKey: domainAnalysesQueryKey(domainId),
    queryFn: () => getDomainAnalyses(domainId),
    refetchInterval: (query) => {
      if (query.state.status === 'error') return false;
      return query.state.data?.some((a) => isInProgressStatus(a.status)) ? ANALYSIS_POLL_MS : false;
    },
  });
}

export function useDomainAnalyses(domainId: string, { enabled = true }: { enabled?: boolean } = {}) {
  const query = useQuery({
    ...getDomainAnalysesQueryOptions(domainId),
    enabled: enabled && Boolean(domainId),
  });
  useFetchFailureToast(query.error, 'Failed to fetch analyses');
  return query;
}
