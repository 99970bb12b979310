import type { PublicUser } from '@csp/shared/schemas/auth';
import { Badge } from '@/components/ui/badge';

/** The signed-in user in the top bar: initials, name and, for admins, a role badge. */
export function UserChip({ user }: { user: PublicUser }) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
  const initials =
    (user.firstName?.[0] ?? '') + (user.lastName?.[0] ?? '') || user.username.slice(0, 2).toUpperCase();
  return (
    <div className="flex min-w-0 items-center gap-2.5">
      {user.role === 'admin' ? (
        <Badge variant="purple" className="hidden sm:inline-flex">
          Admin
        </Badge>
      ) : null}
      <div className="hidden min-w-0 flex-col items-end leading-tight sm:flex">
        <span className="truncate text-sm font-medium text-foreground">{name}</span>
        <span className="truncate text-xs text-muted-foreground">@{user.username}</span>
      </div>
      <span
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary-soft text-xs font-semibold text-primary uppercase ring-1 ring-primary/15"
        aria-hidden="true"
      >
        {initials}
      </span>
    </div>
  );
}
