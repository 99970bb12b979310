// GET /api/csp-analyses: all the user's analyses, newest first.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';

export const analysesQueryKey = ['csp-analyses'] as const;

export async function getAnalyses(): Promise<Analysis[]> {
  return (await apiGet<Analysis[]>('/api/csp-analyses')) ?? [];
}

export function getAnalysesQueryOptions() {
  return queryOptions({ queryKey: analysesQueryKey, queryFn: getAnalyses });
}

export function useAnalyses({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getAnalysesQueryOptions(), enabled });
}
