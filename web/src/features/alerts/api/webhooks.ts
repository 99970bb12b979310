// POST …/webhooks and DELETE …/webhooks/:webhookId of a domain's alert settings or a team's. The creation's
// answer holds the webhook's signing secret, shown once: that mutation is dropped from the mutation cache
// as soon as nothing observes it (gcTime 0), so the secret lives only as long as the dialog that shows it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import type { AlertScope } from './alert-scope';
import { alertSettingsQueryKey } from './alert-settings';
import { teamAlertSettingsQueryKey } from './team-alert-settings';

const settingsKey = (scope: AlertScope) =>
  scope.kind === 'domain' ? alertSettingsQueryKey(scope.id) : teamAlertSettingsQueryKey(scope.id);

export function useAddWebhook(scope: AlertScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) =>
      scope.kind === 'domain'
        ? apiRequest(
            api.domains[':id']['alert-settings'].webhooks.$post({
              param: { id: pathParam(scope.id) },
              json: { url },
            }),
          )
        : apiRequest(
            api.teams[':teamId'].alerts.webhooks.$post({
              param: { teamId: pathParam(scope.id) },
              json: { url },
            }),
          ),
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKey(scope) }),
  });
}

export function useRemoveWebhook(scope: AlertScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) =>
      scope.kind === 'domain'
        ? apiRequest(
            api.domains[':id']['alert-settings'].webhooks[':webhookId'].$delete({
              param: { id: pathParam(scope.id), webhookId: pathParam(webhookId) },
            }),
          )
        : apiRequest(
            api.teams[':teamId'].alerts.webhooks[':webhookId'].$delete({
              param: { teamId: pathParam(scope.id), webhookId: pathParam(webhookId) },
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKey(scope) }),
  });
}
