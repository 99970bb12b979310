// 'Pending Invitations' (spec section 2), shown only when there are any: email, role, sent, expires, and
// for the owner an Actions menu — Copy link (the owner passes it on when no mail server is configured) and
// Revoke (decision for the spec's "not shown [7]").
import type { Invitation } from '@csp/shared/schemas/team';
import { Copy, Ellipsis, Undo2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { HeaderCells, ListTable } from '@/components/ui/list-table';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { copyText } from '@/lib/clipboard';
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
              <td className="py-3 pr-3 pl-5 font-medium break-all sm:pl-6">{i.email}</td>
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
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const revoke = useRevokeInvitation(teamId);

  // Closes on a click elsewhere or Escape, like any menu.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  async function copyLink() {
    setOpen(false);
    if (!invitation.link) return;
    try {
      await copyText(invitation.link);
      toast({ title: 'Copied', description: 'Text copied to clipboard.' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Copy Failed',
        description: 'Failed to copy the invitation link.',
      });
    }
  }

  function revokeIt() {
    setOpen(false);
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
    <div ref={box} className="relative inline-block text-left">
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Actions for the invitation to ${invitation.email}`}
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={revoke.isPending}
        onClick={() => setOpen((v) => !v)}
        data-testid="invitation-actions"
      >
        <Ellipsis aria-hidden="true" />
      </Button>
      {open ? (
        <div
          role="menu"
          className="absolute right-0 z-20 mt-1 flex w-40 flex-col rounded-md border border-border bg-white p-1 text-sm shadow-lg"
        >
          <button
            type="button"
            role="menuitem"
            className="flex items-center gap-2 rounded px-2 py-1.5 text-left hover:bg-slate-100"
            onClick={() => void copyLink()}
          >
            <Copy className="size-4" aria-hidden="true" />
            Copy link
          </button>
          <button
            type="button"
            role="menuitem"
            className="flex items-center gap-2 rounded px-2 py-1.5 text-left text-destructive hover:bg-red-50"
            onClick={revokeIt}
          >
            <Undo2 className="size-4" aria-hidden="true" />
            Revoke
          </button>
        </div>
      ) : null}
    </div>
  );
}
