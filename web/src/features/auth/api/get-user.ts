// GET /api/user: the current user, or null without a session. The user is signed in exactly when this
// returns data. Spec section 4: not retried, always stale, refetched when the window regains focus.
// Without the signed-in marker (shared/src/auth/signed-in-cookie.ts) there is no session to ask about: the
// answer is null at once, with no request (a visitor's first page is not a 401 logged as an error, and it
// shows without waiting for one). The marker comes and goes with the session's cookies, so a refetch (on
// focus, after sign-in or logout) reads it again.
import { hasSignedInCookie } from '@csp/shared/auth/signed-in-cookie';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { env } from '@/config/env';
import { api, apiGet } from '@/lib/api-client';
import { userQueryKey } from '@/lib/query-keys';

/** Whether a session may exist. An API on another origin keeps its cookies from us: then always ask. */
export function maybeSignedIn(): boolean {
  return env.VITE_API_URL !== '' || hasSignedInCookie(document.cookie);
}

/** An answer this fresh is not asked again by a screen that mounts (see refetchOnMount). */
export const JUST_ANSWERED_MS = 1_000;

export async function getUser() {
  if (!maybeSignedIn()) return null;
  return apiGet(api.user.$get());
}

export function getUserQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: getUser,
    // A visitor's screen renders at once, without a loading state.
    initialData: () => (maybeSignedIn() ? undefined : null),
    staleTime: 0,
    // Always stale, so a screen mounting asks again, except right after an answer: the first screen of a
    // page load mounts a moment after the lookup started with the app answered, and asked it twice.
    refetchOnMount: (query) => Date.now() - query.state.dataUpdatedAt > JUST_ANSWERED_MS,
    refetchOnWindowFocus: true,
    retry: false,
  });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}
