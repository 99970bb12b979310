// GET and PUT /api/teams/:teamId/alerts: the team's alert settings (kinds, pending-review days, the members
// e-mailed) and its webhooks (secrets never: only a hint). The owner saves; a member reads. Not under the
// team's own key: a member who leaves must not refetch them (a 404) before the team screen goes; instead the
// key holds the member count, so a member removed (who leaves the recipients) makes a fresh read.
import type { Team } from '@csp/shared/schemas/team';
import type { TeamAlertSettings, TeamAlertSettingsBody } from '@csp/shared/schemas/team-alert-settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiGet, apiRequest, pathParam } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

/** Every read of the team's settings (a prefix: what a change invalidates). */
export const teamAlertSettingsQueryKey = (teamId: string) => ['team-alerts', teamId] as const;
const readKey = (team: TeamRef) => [...teamAlertSettingsQueryKey(team.id), team.memberCount] as const;

type TeamRef = Pick<Team, 'id' | 'memberCount'>;

export const useTeamAlertSettings = (team: TeamRef) =>
  useQuery({
    queryKey: readKey(team),
    queryFn: (): Promise<TeamAlertSettings | null> =>
      apiGet(api.teams[':teamId'].alerts.$get({ param: { teamId: pathParam(team.id) } })),
  });

export function useSaveTeamAlertSettings(team: TeamRef) {
  const teamId = team.id;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TeamAlertSettingsBody) =>
      apiRequest(api.teams[':teamId'].alerts.$put({ param: { teamId: pathParam(teamId) }, json: body })),
    onSuccess: (saved) => {
      queryClient.setQueryData(readKey(team), saved);
      // The domains' Monitoring screens say whose settings apply: the first save changes that.
      return queryClient.invalidateQueries({ queryKey: domainsQueryKey });
    },
  });
}
