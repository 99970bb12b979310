// The frame of every signed-in screen: the protected-route rule, then the top bar and the page.
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { AppLayout } from '@/components/layouts/app-layout';
import { useUser } from '@/features/auth/api/get-user';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { UserChip } from '@/features/auth/components/user-menu';

function Frame({ children }: { children: ReactNode }) {
  const user = useUser().data;
  return <AppLayout aside={user ? <UserChip user={user} /> : null}>{children}</AppLayout>;
}

export function SignedInLayout({ children }: { children?: ReactNode }) {
  return (
    <ProtectedRoute>
      <Frame>{children ?? <Outlet />}</Frame>
    </ProtectedRoute>
  );
}
