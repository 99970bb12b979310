// The root route: renders the matched screen; route errors get a calm fallback.
import { Outlet, ScrollRestoration, useRouteError } from 'react-router-dom';
import { MainErrorFallback } from '@/components/errors/main-error-fallback';
import { useHashTarget } from '@/hooks/use-hash-target';

export function RootLayout() {
  useHashTarget();
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

export function RootErrorBoundary() {
  const error = useRouteError();
  console.error(error);
  return <MainErrorFallback />;
}
