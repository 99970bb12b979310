// GET /api/domains/:id/alerts and …/alert-deliveries: the alerts raised (one per cause, counted) and what
// was sent for them. Refreshed every 30 s: a failed delivery is tried again in the background and an alert
// may be raised by a crawl or by reports at any time.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet, pathParam } from '@/lib/api-client';

const ALERTS_REFRESH_MS = 30_000;

export const alertsQueryKey = (domainId: string) => ['domains', domainId, 'alerts'] as const;
export const alertDeliveriesQueryKey = (domainId: string) =>
  ['domains', domainId, 'alert-deliveries'] as const;

export const alertsQueryOptions = (domainId: string) =>
  queryOptions({
    queryKey: alertsQueryKey(domainId),
    queryFn: async () =>
      (await apiGet(api.domains[':id'].alerts.$get({ param: { id: pathParam(domainId) } })))?.alerts ?? [],
    refetchInterval: ALERTS_REFRESH_MS,
  });

export const useAlerts = (domainId: string) => useQuery(alertsQueryOptions(domainId));

export const alertDeliveriesQueryOptions = (domainId: string) =>
  queryOptions({
    queryKey: alertDeliveriesQueryKey(domainId),
    queryFn: async () =>
      (await apiGet(api.domains[':id']['alert-deliveries'].$get({ param: { id: pathParam(domainId) } })))
        ?.deliveries ?? [],
    refetchInterval: ALERTS_REFRESH_MS,
  });

export const useAlertDeliveries = (domainId: string) => useQuery(alertDeliveriesQueryOptions(domainId));
