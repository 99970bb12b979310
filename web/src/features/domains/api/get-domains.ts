// GET /api/domains: the signed-in user's domains.
import type { Domain } from '@csp/shared/schemas/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export async function getDomains(): Promise<Domain[]> {
  return (await apiGet<Domain[]>('/api/domains')) ?? [];
}

export function getDomainsQueryOptions() {
  return queryOptions({ queryKey: domainsQueryKey, queryFn: getDomains });
}

export function useDomains({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDomainsQueryOptions(), enabled });
}
