// The admin rows' actions: changing a user's role, and deleting a user, domain or analysis after a
// confirmation that says what goes with it (the toasts come from the admin API's mutations).
import type { PublicUser, Role } from '@csp/shared/schemas/auth';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/input';
import { type AdminListName, useAdminDelete, useChangeRole } from '../api/admin';

const WHAT_GOES: Record<AdminListName, string> = {
  users:
    'The user and all of their domains, analyses, configurations and reports will be deleted permanently.',
  domains:
    'The domain and all of its analyses, configurations and security reports will be deleted permanently.',
  analyses: 'The analysis will be deleted permanently; configurations based on it keep their rules.',
};

export function DeleteButton({ list, id, label }: { list: AdminListName; id: string; label: string }) {
  const remove = useAdminDelete(list);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="text-destructive hover:bg-red-50 hover:text-destructive"
        onClick={() => setOpen(true)}
        aria-label={`Delete ${label}`}
        data-testid="admin-delete"
      >
        <Trash2 aria-hidden="true" />
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!remove.isPending) setOpen(next);
        }}
        title={`Delete ${label}?`}
        description={WHAT_GOES[list]}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate(id, { onSettled: () => setOpen(false) })}
      />
    </>
  );
}

export function RoleSelect({ user, self }: { user: PublicUser; self: boolean }) {
  const change = useChangeRole();
  return (
    <Select
      value={user.role}
      disabled={self || change.isPending}
      aria-label={`Role of ${user.username}`}
      className="h-8 w-28"
      title={self ? 'You cannot change your own role' : undefined}
      onChange={(e) => change.mutate({ id: user.id, role: e.target.value as Role })}
      data-testid="admin-role"
    >
      <option value="user">user</option>
      <option value="admin">admin</option>
    </Select>
  );
}
