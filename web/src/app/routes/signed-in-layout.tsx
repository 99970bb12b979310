// The frame of every signed-in screen: the protected-route rule, then the top bar with the user menu, the
// page, and the achievement overlay (an unlock shows on the screen where it was earned).
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { AppLayout } from '@/components/layouts/app-layout';
import { AchievementOverlay } from '@/features/achievements/components/achievement-overlay';
import { useUser } from '@/features/auth/api/get-user';
import { ProtectedRoute } from '@/features/auth/components/protected-route';
import { UserMenu } from '@/features/auth/components/user-menu';

/** The top bar, the page and the overlay, for a signed-in user (also the 404 page's frame when signed in). */
export function SignedInFrame({ children }: { children: ReactNode }) {
  const user = useUser().data;
  return (
    <AppLayout aside={user ? <UserMenu user={user} /> : null}>
      {children}
      <AchievementOverlay signedIn={Boolean(user)} />
    </AppLayout>
  );
}

export function SignedInLayout({ children }: { children?: ReactNode }) {
  return (
    <ProtectedRoute>
      <SignedInFrame>{children ?? <Outlet />}</SignedInFrame>
    </ProtectedRoute>
  );
}
