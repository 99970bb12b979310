// 'Pending Invitations' (spec section 2), shown only when there are any: email, role, sent, expires, and
// for the owner an Actions menu — Copy link (the owner passes it on when no mail server is configured) and
// Revoke (decision for the spec's "not shown [7]").

import type { Invitation } from '@csp/shared/schemas/team';
import { Copy, Ellipsis, Undo2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { DropdownMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { HeaderCells, ListTable } from '@/components/ui/list-table';
import { copyWithToast } from '@/hooks/copy-with-toast';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useRevokeInvitation } from '../api/teams';

const INVITATION_COLUMNS = [
  { label: 'Email' },
  { label: 'Role', from: 'sm' },
  { label: 'Sent', from: 'md' },
  { label: 'Expires' },
] as const;

export function InvitationsTable({
  teamId,
  invitations,
  isOwner,
}: {
  teamId: string;
  invitations: Invitation[];
  isOwner: boolean;
}) {
  if (invitations.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending Invitations</CardTitle>
      </CardHeader>
      <CardContent>
        <ListTable testId="team-invitations" head={<HeaderCells columns={INVITATION_COLUMNS} />}>
          {invitations.map((i) => (
            <tr key={i.id} data-testid="team-invitation" data-id={i.id}>
              <td className="py-3 pr-3 pl-5 font-medium [overflow-wrap:anywhere] sm:pl-6">{i.email}</td>
              <td className="hidden px-3 py-3 capitalize text-muted-foreground sm:table-cell">{i.role}</td>
              <td className="hidden px-3 py-3 whitespace-nowrap text-muted-foreground md:table-cell">
                {formatDate(i.createdAt)}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-muted-foreground">
                {i.expired ? <Badge variant="secondary">Expired</Badge> : formatDate(i.expiresAt)}
              </td>
              <td className="py-3 pr-5 pl-3 text-right sm:pr-6">
                {isOwner ? <InvitationActions teamId={teamId} invitation={i} /> : null}
              </td>
            </tr>
          ))}
        </ListTable>
      </CardContent>
    </Card>
  );
}

function InvitationActions({ teamId, invitation }: { teamId: string; invitation: Invitation }) {
  const revoke = useRevokeInvitation(teamId);

  async function copyLink() {
    if (!invitation.link) return;
    await copyWithToast(invitation.link, 'the invitation link');
  }

  function revokeIt() {
    // mutateAsync: the row (and the table, when it was the last one) is gone once the list refreshes, and
    // React Query skips the callbacks of an unmounted mutation.
    revoke.mutateAsync(invitation.id).then(
      () =>
        toast({
          title: 'Invitation revoked',
          description: `The link sent to ${invitation.email} no longer works.`,
        }),
      (error: Error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: (error instanceof ApiError && error.serverMessage) || error.message,
        }),
    );
  }

  return (
    <DropdownMenu
      label={`Actions for the invitation to ${invitation.email}`}
      trigger={<Ellipsis aria-hidden="true" />}
      disabled={revoke.isPending}
      testId="invitation-actions"
    >
      <DropdownMenuItem onSelect={() => void copyLink()} disabled={!invitation.link}>
        <Copy aria-hidden="true" />
        Copy link
      </DropdownMenuItem>
      <DropdownMenuItem destructive onSelect={revokeIt}>
        <Undo2 aria-hidden="true" />
        Revoke
      </DropdownMenuItem>
    </DropdownMenu>
  );
}
