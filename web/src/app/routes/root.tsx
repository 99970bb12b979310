// The root route: renders the matched screen; route errors get a calm fallback.
import { Outlet, ScrollRestoration, useRouteError } from 'react-router-dom';
import { MainErrorFallback } from '@/components/errors/main-error-fallback';

export function RootLayout() {
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
