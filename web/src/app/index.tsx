import { getUserQueryOptions } from '@/features/auth/api/get-user';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRouter, type AppRouterInstance, prepareAppRouter } from './router';

/**
 * The query client, and the first screen's reads sent, as the app's script runs, before React renders
 * anything; `start` makes the router (see main.tsx: in a task of its own). Made inside the first render, they
 * were half of one main-thread task of 50–65 ms (without throttling) that ended in the first paint, blocking
 * time on a phone.
 */
export function startApp() {
  let router: AppRouterInstance | undefined;
  const queryClient = createQueryClient({
    onLoggedOut: () => void router?.navigate('/auth', { replace: true }),
  });
  // Every screen first asks who is signed in: ask now, while the screen's modules load, not after them.
  void queryClient.prefetchQuery(getUserQueryOptions());
  const makeRouter = prepareAppRouter(queryClient);
  return {
    start: () => {
      router = makeRouter();
      return { router, queryClient };
    },
  };
}

export function App({ router, queryClient }: ReturnType<ReturnType<typeof startApp>['start']>) {
  return (
    <AppProvider queryClient={queryClient}>
      <AppRouter router={router} />
    </AppProvider>
  );
}
