// POST /api/domains/:id/alert-settings/webhooks and DELETE …/webhooks/:webhookId. The creation's answer
// holds the webhook's signing secret, shown once: that mutation is dropped from the mutation cache as soon
// as nothing observes it (gcTime 0), so the secret lives only as long as the dialog that shows it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { alertSettingsQueryKey } from './alert-settings';

export function useAddWebhook(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (url: string) =>
      apiRequest(
        api.domains[':id']['alert-settings'].webhooks.$post({
          param: { id: pathParam(domainId) },
          json: { url },
        }),
      ),
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertSettingsQueryKey(domainId) }),
  });
}

export function useRemoveWebhook(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) =>
      apiRequest(
        api.domains[':id']['alert-settings'].webhooks[':webhookId'].$delete({
          param: { id: pathParam(domainId), webhookId: pathParam(webhookId) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alertSettingsQueryKey(domainId) }),
  });
}
