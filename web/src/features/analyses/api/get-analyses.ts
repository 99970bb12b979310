// GET /api/csp-analyses: all the user's analyses, newest first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useFetchFailureToast } from '@/hooks/use-fetch-failure-toast';
import { api, apiGet } from '@/lib/api-client';

export const analysesQueryKey = ['csp-analyses'] as const;

export async function getAnalyses() {
  return (await apiGet(api['csp-analyses'].$get())) ?? [];
}

export function getAnalysesQueryOptions() {
  return queryOptions({ queryKey: analysesQueryKey, queryFn: getAnalyses });
}

export function useAnalyses({ enabled = true }: { enabled?: boolean } = {}) {
  const query = useQuery({ ...getAnalysesQueryOptions(), enabled });
  useFetchFailureToast(query.error, 'Failed to fetch analyses');
  return query;
}
