// GET and PUT /api/domains/:id/alert-settings: what alerts (kinds, the pending-review days) and whether the
// owner is e-mailed; the answer lists the webhooks too (their secrets never: only a hint). The owner saves;
// a team member reads.
import type { AlertSettings, AlertSettingsBody } from '@csp/shared/schemas/alert-settings';
import type { AlertSettingsChoice } from '@csp/shared/schemas/team-alert-settings';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiGet, apiRequest, pathParam } from '@/lib/api-client';

/** One domain's alert settings; the alerts' and deliveries' keys sit beside it under the domain's. */
export const alertSettingsQueryKey = (domainId: string) => ['domains', domainId, 'alert-settings'] as const;

export const alertSettingsQueryOptions = (domainId: string) =>
  queryOptions({
    queryKey: alertSettingsQueryKey(domainId),
    queryFn: (): Promise<(AlertSettings & AlertSettingsChoice) | null> =>
      apiGet(api.domains[':id']['alert-settings'].$get({ param: { id: pathParam(domainId) } })),
  });

export const useAlertSettings = (domainId: string) => useQuery(alertSettingsQueryOptions(domainId));

export function useSaveAlertSettings(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertSettingsBody) =>
      apiRequest(
        api.domains[':id']['alert-settings'].$put({ param: { id: pathParam(domainId) }, json: body }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(alertSettingsQueryKey(domainId), saved),
  });
}

/** PUT /api/domains/:id/alert-settings/source: the switch "Use the team's alert settings". */
export function useSetAlertSource(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (useTeamSettings: boolean) =>
      apiRequest(
        api.domains[':id']['alert-settings'].source.$put({
          param: { id: pathParam(domainId) },
          json: { useTeamSettings },
        }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(alertSettingsQueryKey(domainId), saved),
  });
}
