// GET /api/user: the current user, or null without a session. The user is signed in exactly when this
// returns data. Spec section 4: not retried, always stale, refetched when the window regains focus.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet } from '@/lib/api-client';

import { userQueryKey } from '@/lib/query-keys';

export function getUser() {
  return apiGet(api.user.$get());
}

export function getUserQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: getUser,
    staleTime: 0,
    refetchOnWindowFocus: true,
    retry: false,
  });
}

export function useUser() {
  return useQuery(getUserQueryOptions());
}
