// '/': the landing page for visitors, the dashboard when signed in (each loaded only when needed).
import { lazy, Suspense } from 'react';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { useUser } from '@/features/auth/api/get-user';
import { SignedInLayout } from './signed-in-layout';

const LandingRoute = lazy(() => import('./landing').then((m) => ({ default: m.LandingRoute })));
const DashboardRoute = lazy(() => import('./dashboard').then((m) => ({ default: m.DashboardRoute })));

export function HomeRoute() {
  const user = useUser();
  if (user.isLoading) return <FullScreenLoading />;
  return (
    <Suspense fallback={<FullScreenLoading />}>
      {user.data ? (
        <SignedInLayout>
          <DashboardRoute />
        </SignedInLayout>
      ) : (
        <LandingRoute />
      )}
    </Suspense>
  );
}
