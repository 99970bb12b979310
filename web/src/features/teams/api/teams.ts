// Teams (spec section 7): the user's team, its members and pending invitations (fetched only when there is
// a team), creating one, inviting, revoking, leaving or removing, deleting; and the invited side,
// /invite/{token}. Any change refreshes the user (teamId), the team lists and the domains (a member sees
// the owner's).
import type { Team, TeamCreateInput } from '@csp/shared/schemas/team';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiGet, apiRequest, pathParam } from '@/lib/api-client';
import { domainsQueryKey, userQueryKey } from '@/lib/query-keys';

export const teamQueryKey = ['team'] as const;
const membersKey = [...teamQueryKey, 'members'] as const;
const invitationsKey = [...teamQueryKey, 'invitations'] as const;

export function useTeam({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery(
    queryOptions({ queryKey: teamQueryKey, queryFn: () => apiGet(api.user.team.$get()), enabled }),
  );
}

export function useTeamMembers(team: Team | null | undefined) {
  return useQuery({
    queryKey: [...membersKey, team?.id],
    queryFn: async () => (await apiGet(api.teams.members.$get())) ?? [],
    enabled: Boolean(team),
  });
}

export function useTeamInvitations(team: Team | null | undefined) {
  return useQuery({
    queryKey: [...invitationsKey, team?.id],
    queryFn: async () => (await apiGet(api.teams.invitations.$get())) ?? [],
    enabled: Boolean(team),
  });
}

function useTeamMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () =>
      Promise.all(
        [teamQueryKey, userQueryKey, domainsQueryKey].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

export const useCreateTeam = () =>
  useTeamMutation((input: TeamCreateInput) => apiRequest(api.teams.$post({ json: input })));

export const useInvite = (teamId: string) =>
  useTeamMutation((email: string) =>
    apiRequest(
      api.teams[':teamId'].invitations.$post({
        param: { teamId: pathParam(teamId) },
        json: { email, role: 'member' },
      }),
    ),
  );

export const useRevokeInvitation = (teamId: string) =>
  useTeamMutation((id: string) =>
    apiRequest(
      api.teams[':teamId'].invitations[':id'].$delete({
        param: { teamId: pathParam(teamId), id: pathParam(id) },
      }),
    ),
  );

/** The owner removes a member; a member passes their own id to leave. */
export const useRemoveMember = (teamId: string) =>
  useTeamMutation((userId: string) =>
    apiRequest(
      api.teams[':teamId'].members[':userId'].$delete({
        param: { teamId: pathParam(teamId), userId: pathParam(userId) },
      }),
    ),
  );

export const useDeleteTeam = (teamId: string) =>
  useTeamMutation(() => apiRequest(api.teams[':teamId'].$delete({ param: { teamId: pathParam(teamId) } })));

export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: () => apiGet(api.invitations[':token'].$get({ param: { token: pathParam(token) } })),
    retry: false,
  });
}

export const useAcceptInvitation = (token: string) =>
  useTeamMutation(() =>
    apiRequest(api.invitations[':token'].accept.$post({ param: { token: pathParam(token) } })),
  );
