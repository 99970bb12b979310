// 'Team Members' (spec section 2): name (first plus last, else the username), email, role and joined date.
// The owner can remove a member, after a confirmation.
import type { TeamMember } from '@csp/shared/schemas/team';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { HeaderCells, ListTable } from '@/components/ui/list-table';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useRemoveMember } from '../api/teams';

const MEMBER_COLUMNS = [
  { label: 'Name' },
  { label: 'Email', from: 'sm' },
  { label: 'Role' },
  { label: 'Joined', from: 'md' },
] as const;

const memberName = (m: Pick<TeamMember, 'firstName' | 'lastName' | 'username'>) =>
  [m.firstName, m.lastName].filter(Boolean).join(' ') || m.username;

export function MembersTable({
  teamId,
  members,
  loading,
  error,
  canRemove,
}: {
  teamId: string;
  members: TeamMember[];
  loading: boolean;
  error: Error | null;
  canRemove: boolean;
}) {
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const remove = useRemoveMember(teamId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Team Members</CardTitle>
      </CardHeader>
      <CardContent>
        {loading ? (
          <LoadingBlock label="Loading the members...">
            <Skeleton className="h-24 w-full" />
          </LoadingBlock>
        ) : error ? (
          <p className="text-sm text-destructive" role="alert">
            Could not load the members ({error.message}).
          </p>
        ) : (
          <ListTable testId="team-members" head={<HeaderCells columns={MEMBER_COLUMNS} />}>
            {members.map((m) => (
              <tr key={m.id} data-testid="team-member" data-id={m.id}>
                <td className="py-3 pr-3 pl-5 sm:pl-6">
                  <span className="block font-medium break-words">{memberName(m)}</span>
                  <span className="block text-xs [overflow-wrap:anywhere] text-muted-foreground sm:hidden">
                    {m.email ?? '—'}
                  </span>
                </td>
                <td className="hidden px-3 py-3 [overflow-wrap:anywhere] text-muted-foreground sm:table-cell">
                  {m.email ?? '—'}
                </td>
                <td className="px-3 py-3">
                  <Badge variant={m.role === 'owner' ? 'purple' : 'outline'}>
                    {m.role === 'owner' ? 'Owner' : 'Member'}
                  </Badge>
                </td>
                <td className="hidden px-3 py-3 whitespace-nowrap text-muted-foreground md:table-cell">
                  {formatDate(m.joinedAt)}
                </td>
                <td className="py-3 pr-5 pl-3 text-right sm:pr-6">
                  {canRemove && m.role !== 'owner' ? (
                    <Button variant="ghost" size="sm" onClick={() => setRemoving(m)}>
                      Remove
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setRemoving(null);
        }}
        title={`Remove ${removing ? memberName(removing) : ''} from the team?`}
        description="They will no longer see the team's domains. You can invite them again later."
        confirmLabel="Remove"
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              toast({ title: 'Member removed', description: `${memberName(removing)} left the team.` });
              setRemoving(null);
            },
            onError: (error) => {
              setRemoving(null);
              toast({
                variant: 'destructive',
                title: 'Error',
                description: (error instanceof ApiError && error.serverMessage) || error.message,
              });
            },
          })
        }
      />
    </Card>
  );
}
