// GET and PUT /api/teams/:teamId/alerts: the team's alert settings (kinds, pending-review days, the members
// e-mailed) and its webhooks (secrets never: only a hint). The owner saves; a member reads. Kept under the
// team's key, so any team change (a member removed leaves the recipients) refreshes it too.
import type { TeamAlertSettings, TeamAlertSettingsBody } from '@csp/shared/schemas/team-alert-settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiGet, apiRequest, pathParam } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export const teamAlertSettingsQueryKey = (teamId: string) => ['team', 'alerts', teamId] as const;

export const useTeamAlertSettings = (teamId: string) =>
  useQuery({
    queryKey: teamAlertSettingsQueryKey(teamId),
    queryFn: (): Promise<TeamAlertSettings | null> =>
      apiGet(api.teams[':teamId'].alerts.$get({ param: { teamId: pathParam(teamId) } })),
  });

export function useSaveTeamAlertSettings(teamId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TeamAlertSettingsBody) =>
      apiRequest(api.teams[':teamId'].alerts.$put({ param: { teamId: pathParam(teamId) }, json: body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(teamAlertSettingsQueryKey(teamId), saved);
      // The domains' Monitoring screens say whose settings apply: the first save changes that.
      return queryClient.invalidateQueries({ queryKey: domainsQueryKey });
    },
  });
}
