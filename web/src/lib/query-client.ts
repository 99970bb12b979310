// TanStack Query defaults from spec section 7: data fresh for 5 minutes, no refetch on window focus,
// no retries. The current-user query overrides these (always stale, refetch on focus).
// The one place that handles a write answered 401 while signed in (spec section 8: 'Unauthorized: You are
// logged out. Logging in again...' then /auth after 500 ms), whatever form sent it: the forms' own error
// callbacks never see that 401, so each shows its messages for every other refusal and nothing for this one.
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { toast } from '@/hooks/use-toast';
import { ApiError } from './api-client';
import { userQueryKey } from './query-keys';
import { markSignedOut } from './signed-out';

export const FIVE_MINUTES = 5 * 60 * 1000;
export const LOGGED_OUT_REDIRECT_MS = 500;

/** A write refused because the session is gone. */
function isLoggedOutError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/**
 * After Logout or a lost session: nothing of this user stays cached (the next one to sign in in this tab
 * would see it for 5 minutes), and the user is known absent, so /auth shows its form and does not bounce.
 */
export function forgetUser(queryClient: QueryClient): void {
  queryClient.clear();
  queryClient.setQueryData(userQueryKey, null);
}

/**
 * A query starts fetching when a screen first asks for it (the render that creates it), not once its component
 * has mounted. TanStack Query starts it when the component subscribes, in React's effects after the commit:
 * the domain screen's panels mount together, and their dozen reads starting there (with the notifications each
 * start sends to the screen's other subscribers, and the renders those cause) made one task of 90 ms without
 * throttling, some 300 ms of blocking time on a phone, right after the panels appeared (React's profiler, 4×
 * CPU: the effects after that commit took 143–224 ms; with this, under 25 ms). Started here, in a microtask
 * after the render's slice that asks, each start falls beside the slices of a render that yields between
 * them, and the mount finds its read already on its way. Only what the mount would fetch: a query with no
 * data that is not fetching and not disabled (prefetches and cached answers are left alone).
 */
function fetchWhenAsked(queryClient: QueryClient): void {
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'added') return;
    const { query } = event;
    queueMicrotask(() => {
      const { enabled } = query.options as { enabled?: unknown };
      if (enabled === false || typeof enabled === 'function') return;
      if (query.state.data !== undefined || query.state.fetchStatus !== 'idle') return;
      // A failure is the query's own state, shown by its screen as before.
      query.fetch().catch(() => {});
    });
  });
}

export function createQueryClient({ onLoggedOut }: { onLoggedOut?: () => void } = {}): QueryClient {
  let redirect: ReturnType<typeof setTimeout> | undefined;
  const queryClient: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onError: (error) => {
        // A 401 before sign-in (a wrong password, a missing 2FA code) is the form's own business.
        if (!isLoggedOutError(error) || !queryClient.getQueryData(userQueryKey)) return;
        markSignedOut();
        toast({
          variant: 'destructive',
          title: 'Unauthorized',
          description: 'You are logged out. Logging in again...',
        });
        clearTimeout(redirect);
        redirect = setTimeout(() => {
          forgetUser(queryClient);
          onLoggedOut?.();
        }, LOGGED_OUT_REDIRECT_MS);
        // TanStack Query awaits this handler before the mutation's own onError and the caller's callbacks
        // (mutate's, mutateAsync's rejection): a promise that never settles keeps them all from running, and
        // the write stays pending (its button busy) until the screen goes to /auth and the cache is cleared.
        return new Promise<never>(() => {});
      },
    }),
    defaultOptions: {
      queries: { staleTime: FIVE_MINUTES, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
  fetchWhenAsked(queryClient);
  return queryClient;
}
