// GET /api/domains/:id: one domain (null without a session).
import type { Domain } from '@csp/shared/schemas/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export const domainQueryKey = (id: string) => [...domainsQueryKey, id] as const;

export function getDomain(id: string): Promise<Domain | null> {
  return apiGet<Domain>(`/api/domains/${encodeURIComponent(id)}`);
}

export function getDomainQueryOptions(id: string) {
  return queryOptions({ queryKey: domainQueryKey(id), queryFn: () => getDomain(id) });
}

export function useDomain(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getDomainQueryOptions(id), enabled });
}
