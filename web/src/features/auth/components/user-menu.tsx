// The signed-in user in the top bar of every signed-in screen: the avatar (initials) and name open a menu
// with Settings, the Admin Panel for admins, and Logout, so no screen is a dead end.
import type { PublicUser } from '@csp/shared/schemas/auth';
import { LayoutDashboard, LogOut, Settings, Shield } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { DropdownMenu, DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { useLogoutAction } from './logout-button';

function displayName(user: PublicUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
}

function initialsOf(user: PublicUser): string {
  return (user.firstName?.[0] ?? '') + (user.lastName?.[0] ?? '') || user.username.slice(0, 2).toUpperCase();
}

export function UserMenu({ user }: { user: PublicUser }) {
  const navigate = useNavigate();
  const logout = useLogoutAction();
  const name = displayName(user);
  return (
    <DropdownMenu
      label="User menu"
      testId="user-menu"
      className="w-56"
      triggerClassName="flex min-w-0 items-center gap-2.5 rounded-full py-1 pr-1 pl-2 transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring aria-expanded:bg-muted sm:rounded-lg"
      trigger={
        <>
          {user.role === 'admin' ? (
            <Badge variant="purple" className="hidden sm:inline-flex">
              Admin
            </Badge>
          ) : null}
          <span className="hidden min-w-0 flex-col items-end leading-tight sm:flex">
            <span className="max-w-48 truncate text-sm font-medium text-foreground">{name}</span>
            <span className="max-w-48 truncate text-xs text-muted-foreground">@{user.username}</span>
          </span>
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary-soft text-xs font-semibold text-primary uppercase ring-1 ring-primary/15">
            {initialsOf(user)}
          </span>
        </>
      }
    >
      <div className="flex flex-col border-b border-border px-2 pt-1 pb-2 leading-tight">
        <span className="truncate font-medium">{name}</span>
        <span className="truncate text-xs text-muted-foreground">@{user.username}</span>
      </div>
      <div className="flex flex-col pt-1">
        <DropdownMenuItem onSelect={() => navigate('/dashboard')} data-testid="user-menu-dashboard">
          <LayoutDashboard aria-hidden="true" />
          Dashboard
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => navigate('/settings')} data-testid="user-menu-settings">
          <Settings aria-hidden="true" />
          Settings
        </DropdownMenuItem>
        {user.role === 'admin' ? (
          <DropdownMenuItem onSelect={() => navigate('/admin')} data-testid="user-menu-admin">
            <Shield aria-hidden="true" />
            Admin Panel
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem
          onSelect={logout.run}
          disabled={logout.isPending}
          destructive
          data-testid="user-menu-logout"
        >
          <LogOut aria-hidden="true" />
          Logout
        </DropdownMenuItem>
      </div>
    </DropdownMenu>
  );
}
