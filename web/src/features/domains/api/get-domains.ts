// GET /api/domains: the signed-in user's domains.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet, type JsonOf } from '@/lib/api-client';

export type SeenDomain = JsonOf<Awaited<ReturnType<typeof api.domains.$get>>>[number];

import { domainsQueryKey } from '@/lib/query-keys';

export async function getDomains() {
  return (await apiGet(api.domains.$get())) ?? [];
}

export function getDomainsQueryOptions() {
  return queryOptions({ queryKey: domainsQueryKey, queryFn: getDomains });
}

export function useDomains({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDomainsQueryOptions(), enabled });
}
