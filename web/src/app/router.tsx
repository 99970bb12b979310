// The route table (spec section 2). Every screen is a lazily loaded module.

import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, matchRoutes, type RouteObject, RouterProvider } from 'react-router-dom';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { maybeSignedIn } from '@/features/auth/api/get-user';
import { authForms } from '@/features/auth/components/auth-forms';
import { prefetchDashboard, prefetchDomain } from './route-prefetch';
import { RootErrorBoundary, RootLayout } from './routes/root';

/** The route table, with the first screen's reads sent now; the router itself is made by the function returned. */
export function prepareAppRouter(queryClient: QueryClient): () => AppRouterInstance {
  const routes = appRoutes(queryClient);
  prefetchFirstScreen(routes);
  return () => createBrowserRouter(routes);
}

export type AppRouterInstance = ReturnType<typeof createBrowserRouter>;

/**
 * The first screen's reads go out before its modules are asked for. The router asks for a route's modules
 * first and runs its loader after: on a page load the domain screen's dozen modules took the browser's six
 * connections to the server (HTTP/1.1) and the domain's read waited behind them. The router's own first run
 * of the same loaders, as it starts a moment later, is skipped: the reads are on their way, and running a
 * loader again did everything once more (the session marker's cookie read, an import and its preload links),
 * some 10 ms of the page's first task, ahead of its first paint.
 */
function prefetchFirstScreen(routes: RouteObject[]): void {
  const url = new URL(window.location.href);
  const request = new Request(url);
  for (const { route, params } of matchRoutes(routes, window.location) ?? []) {
    const loader = route.loader;
    if (typeof loader !== 'function') continue;
    void loader({ request, url, params, pattern: route.path ?? '', context: undefined });
    let runByRouter = false;
    route.loader = (args, handlerContext) => {
      if (runByRouter) return loader(args, handlerContext);
      runByRouter = true;
      return null;
    };
  }
}

function appRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: FullScreenLoading,
      children: [
        {
          path: '/',
          loader: () => prefetchDashboard(queryClient),
          lazy: () => {
            // '/' is the landing page or the dashboard: the one the signed-in marker predicts loads beside
            // the route's own module, not after it (one round trip fewer before the first screen).
            void (maybeSignedIn() ? import('./routes/home-signed-in') : import('./routes/landing'));
            return import('./routes/home').then((m) => ({ Component: m.HomeRoute }));
          },
        },
        {
          path: '/auth',
          // The screen first, then its forms (see routes/auth.tsx): asked for beside the screen's modules
          // (20 KB), the forms' 54 KB shared a phone's bandwidth with them, and the screen's largest text
          // came after all of it; asked for once the screen is there, a form comes one round trip later.
          lazy: () =>
            import('./routes/auth').then((m) => {
              void authForms.login();
              void authForms.register();
              return { Component: m.AuthRoute };
            }),
        },
        {
          lazy: () => import('./routes/signed-in-layout').then((m) => ({ Component: m.SignedInLayout })),
          children: [
            {
              path: '/dashboard',
              loader: () => prefetchDashboard(queryClient),
              lazy: () => import('./routes/dashboard').then((m) => ({ Component: m.DashboardRoute })),
            },
            {
              path: '/domains/new',
              lazy: () => import('./routes/domains-new').then((m) => ({ Component: m.DomainsNewRoute })),
            },
            {
              path: '/domains/:id',
              loader: ({ params }) => prefetchDomain(queryClient, params.id ?? ''),
              lazy: () => import('./routes/domain-detail').then((m) => ({ Component: m.DomainDetailRoute })),
            },
            {
              path: '/analysis/:id',
              lazy: () =>
                import('./routes/analysis-detail').then((m) => ({ Component: m.AnalysisDetailRoute })),
            },
            {
              path: '/admin',
              lazy: () => import('./routes/admin').then((m) => ({ Component: m.AdminRoute })),
            },
            {
              path: '/settings',
              lazy: () => import('./routes/settings').then((m) => ({ Component: m.SettingsRoute })),
            },
            {
              path: '/invite/:token',
              lazy: () => import('./routes/invite').then((m) => ({ Component: m.InviteRoute })),
            },
            {
              path: '/csp-generator',
              lazy: () => import('./routes/csp-generator').then((m) => ({ Component: m.CspGeneratorRoute })),
            },
          ],
        },
        { path: '*', lazy: () => import('./routes/not-found').then((m) => ({ Component: m.NotFoundRoute })) },
      ],
    },
  ];
}

export function AppRouter({ router }: { router: AppRouterInstance }) {
  return <RouterProvider router={router} />;
}
