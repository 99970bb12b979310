// "Send test": a test alert to every channel at once, answered with each channel's result. A domain's is an
// alert and deliveries like any other (the lists are refetched); a team's is sent and not kept.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import type { AlertScope } from './alert-scope';
import { alertDeliveriesQueryKey, alertsQueryKey } from './get-alerts';

export function useSendTestAlert(scope: AlertScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      scope.kind === 'domain'
        ? apiRequest(api.domains[':id'].alerts.test.$post({ param: { id: pathParam(scope.id) } }))
        : apiRequest(api.teams[':teamId'].alerts.test.$post({ param: { teamId: pathParam(scope.id) } })),
    onSettled: () =>
      scope.kind === 'domain'
        ? Promise.all([
            queryClient.invalidateQueries({ queryKey: alertsQueryKey(scope.id) }),
            queryClient.invalidateQueries({ queryKey: alertDeliveriesQueryKey(scope.id) }),
          ])
        : undefined,
  });
}
