// Teams (spec section 7): the user's team, its members and pending invitations (fetched only when there is
// a team), creating one, inviting, revoking, leaving or removing, deleting; and the invited side,
// /invite/{token}. Any change refreshes the user (teamId), the team lists and the domains (a member sees
// the owner's).
import type {
  Invitation,
  InvitationPreview,
  InvitationSent,
  Team,
  TeamCreateInput,
  TeamMember,
} from '@csp/shared/schemas/team';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiRequest } from '@/lib/api-client';
import { domainsQueryKey, userQueryKey } from '@/lib/query-keys';

export const teamQueryKey = ['team'] as const;
const membersKey = [...teamQueryKey, 'members'] as const;
const invitationsKey = [...teamQueryKey, 'invitations'] as const;

export function useTeam({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery(
    queryOptions({ queryKey: teamQueryKey, queryFn: () => apiGet<Team | null>('/api/user/team'), enabled }),
  );
}

export function useTeamMembers(team: Team | null | undefined) {
  return useQuery({
    queryKey: [...membersKey, team?.id],
    queryFn: async () => (await apiGet<TeamMember[]>('/api/teams/members')) ?? [],
    enabled: Boolean(team),
  });
}

export function useTeamInvitations(team: Team | null | undefined) {
  return useQuery({
    queryKey: [...invitationsKey, team?.id],
    queryFn: async () => (await apiGet<Invitation[]>('/api/teams/invitations')) ?? [],
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
  useTeamMutation((input: TeamCreateInput) => apiRequest<Team>('POST', '/api/teams', input));

export const useInvite = (teamId: string) =>
  useTeamMutation((email: string) =>
    apiRequest<InvitationSent>('POST', `/api/teams/${encodeURIComponent(teamId)}/invitations`, {
      email,
      role: 'member',
    }),
  );

export const useRevokeInvitation = (teamId: string) =>
  useTeamMutation((id: string) =>
    apiRequest<{ success: boolean }>(
      'DELETE',
      `/api/teams/${encodeURIComponent(teamId)}/invitations/${encodeURIComponent(id)}`,
    ),
  );

/** The owner removes a member; a member passes their own id to leave. */
export const useRemoveMember = (teamId: string) =>
  useTeamMutation((userId: string) =>
    apiRequest<{ success: boolean }>(
      'DELETE',
      `/api/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}`,
    ),
  );

export const useDeleteTeam = (teamId: string) =>
  useTeamMutation(() =>
    apiRequest<{ success: boolean }>('DELETE', `/api/teams/${encodeURIComponent(teamId)}`),
  );

export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: ['invitation', token],
    queryFn: () => apiGet<InvitationPreview>(`/api/invitations/${encodeURIComponent(token)}`),
    retry: false,
  });
}

export const useAcceptInvitation = (token: string) =>
  useTeamMutation(() => apiRequest<Team>('POST', `/api/invitations/${encodeURIComponent(token)}/accept`));
