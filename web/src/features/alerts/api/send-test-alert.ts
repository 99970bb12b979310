// POST /api/domains/:id/alerts/test: a test alert to every channel at once, answered with each channel's
// result. It is an alert and deliveries like any other: the lists are refetched.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { alertDeliveriesQueryKey, alertsQueryKey } from './get-alerts';

export function useSendTestAlert(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(api.domains[':id'].alerts.test.$post({ param: { id: pathParam(domainId) } })),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: alertsQueryKey(domainId) }),
        queryClient.invalidateQueries({ queryKey: alertDeliveriesQueryKey(domainId) }),
      ]),
  });
}
