// Settings › Team (spec section 2): without a team the create form; with one, the 'Team: {name}' card
// (description, slug, members of maximum, 'Your Role'), the owner's invite form, the members and the
// pending invitations, then what the app adds (the team's alert settings). The owner can delete the team; a
// member can leave it.
import type { PublicUser } from '@csp/shared/schemas/auth';
import type { Team, TeamMember } from '@csp/shared/schemas/team';
import { type ReactNode, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { useDeleteTeam, useRemoveMember, useTeam, useTeamInvitations, useTeamMembers } from '../api/teams';
import { CreateTeamForm } from './create-team-form';
import { InvitationsTable } from './invitations-table';
import { InviteForm } from './invite-form';
import { MembersTable } from './members-table';

/** What the app puts below the team's lists (its alert settings, from the alerts feature). */
export type TeamSection = (props: { team: Team; isOwner: boolean; members: TeamMember[] }) => ReactNode;

export function TeamTab({ user, alerts }: { user: PublicUser; alerts?: TeamSection }) {
  const team = useTeam();
  if (team.isLoading) {
    return (
      <LoadingBlock className="flex flex-col gap-6" label="Loading your team...">
        <Skeleton className="h-40 w-full rounded-xl" />
      </LoadingBlock>
    );
  }
  if (team.error) {
    return (
      <Alert tone="error" role="alert">
        Could not load your team ({team.error.message}).
      </Alert>
    );
  }
  if (!team.data) return <CreateTeamForm />;
  return <TeamView team={team.data} user={user} alerts={alerts} />;
}

function TeamView({ team, user, alerts }: { team: Team; user: PublicUser; alerts: TeamSection | undefined }) {
  const isOwner = team.ownerId === user.id;
  const members = useTeamMembers(team);
  const invitations = useTeamInvitations(team);
  return (
    <div className="flex flex-col gap-6">
      <TeamCard team={team} user={user} isOwner={isOwner} />
      {isOwner ? <InviteForm teamId={team.id} /> : null}
      <MembersTable
        teamId={team.id}
        members={members.data ?? []}
        loading={members.isLoading}
        error={members.error}
        canRemove={isOwner}
      />
      <InvitationsTable teamId={team.id} invitations={invitations.data ?? []} isOwner={isOwner} />
      {alerts && members.data ? alerts({ team, isOwner, members: members.data }) : null}
    </div>
  );
}

function TeamCard({ team, user, isOwner }: { team: Team; user: PublicUser; isOwner: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteTeam(team.id);
  const leave = useRemoveMember(team.id);
  const pending = remove.isPending || leave.isPending;
  const onError = (error: Error) => {
    setConfirming(false);
    toast({
      variant: 'destructive',
      title: 'Error',
      description: (error instanceof ApiError && error.serverMessage) || error.message,
    });
  };
  // mutateAsync, not mutate's callbacks: the card unmounts as soon as the team is gone (the tab turns into
  // the create form), and React Query skips the callbacks of an unmounted mutation.
  const confirm = () =>
    (isOwner ? remove.mutateAsync(undefined) : leave.mutateAsync(user.id)).then(
      () =>
        toast(
          isOwner
            ? { title: 'Team deleted', description: `${team.name} no longer exists.` }
            : { title: 'Left team', description: `You are no longer a member of ${team.name}.` },
        ),
      onError,
    );

  return (
    <Card data-testid="team-card">
      <CardHeader
        actions={
          <Button
            variant="outline"
            size="sm"
            className="text-destructive hover:bg-red-50 hover:text-destructive"
            onClick={() => setConfirming(true)}
          >
            {isOwner ? 'Delete team' : 'Leave team'}
          </Button>
        }
      >
        <CardTitle>Team: {team.name}</CardTitle>
        <CardDescription>{team.description || 'No description.'}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-xs text-muted-foreground">Slug</dt>
            <dd className="mt-1 font-mono">{team.slug}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Members</dt>
            <dd className="mt-1 tabular-nums">
              {team.memberCount} of {team.maxMembers} max
            </dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Your Role</dt>
            <dd className="mt-1">
              <Badge variant={isOwner ? 'purple' : 'outline'}>{isOwner ? 'Owner' : 'Member'}</Badge>
            </dd>
          </div>
        </dl>
        <p className="mt-4 text-xs text-muted-foreground">
          {isOwner
            ? 'Members see your domains, their analyses, configurations and reports, read-only; only you change them.'
            : "You see the owner's domains, their analyses, configurations and reports, read-only."}
        </p>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!pending) setConfirming(open);
        }}
        title={isOwner ? `Delete ${team.name}?` : `Leave ${team.name}?`}
        description={
          isOwner
            ? 'Every member leaves the team and its pending invitations stop working. Your domains stay yours.'
            : "You will no longer see the team's domains. The owner can invite you again."
        }
        confirmLabel={isOwner ? 'Delete team' : 'Leave team'}
        destructive
        pending={pending}
        onConfirm={() => void confirm()}
      />
    </Card>
  );
}
