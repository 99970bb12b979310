// GET /api/domains/:id: one domain (null without a session).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export const domainQueryKey = (id: string) => [...domainsQueryKey, id] as const;

export function getDomain(id: string) {
  return apiGet(api.domains[':id'].$get({ param: { id: pathParam(id) } }));
}

export function getDomainQueryOptions(id: string) {
  return queryOptions({ queryKey: domainQueryKey(id), queryFn: () => getDomain(id) });
}

export function useDomain(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDomainQueryOptions(id), enabled });
}
