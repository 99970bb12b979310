// '/': the landing page for visitors, the dashboard when signed in (each loaded only when needed: a visitor
// downloads nothing of the signed-in screens).
import { lazy, Suspense } from 'react';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { useUser } from '@/features/auth/api/get-user';

const LandingRoute = lazy(() => import('./landing').then((m) => ({ default: m.LandingRoute })));
const SignedInHome = lazy(() => import('./home-signed-in').then((m) => ({ default: m.SignedInHome })));

export function HomeRoute() {
  const user = useUser();
  if (user.isLoading) return <FullScreenLoading />;
  return (
    <Suspense fallback={<FullScreenLoading />}>{user.data ? <SignedInHome /> : <LandingRoute />}</Suspense>
  );
}
