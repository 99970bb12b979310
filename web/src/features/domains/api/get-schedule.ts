// GET /api/domains/:id/schedule: the domain's schedule, its next run and what its runs did.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export const scheduleQueryKey = (domainId: string) => [...domainsQueryKey, domainId, 'schedule'] as const;

export function getSchedule(domainId: string) {
  return apiGet(api.domains[':id'].schedule.$get({ param: { id: pathParam(domainId) } }));
}

export const scheduleQueryOptions = (domainId: string) =>
  queryOptions({
    queryKey: scheduleQueryKey(domainId),
    queryFn: () => getSchedule(domainId),
    // A run the dispatcher starts shows in the history without a reload.
    refetchInterval: 60_000,
  });

export function useSchedule(domainId: string) {
  return useQuery(scheduleQueryOptions(domainId));
}
