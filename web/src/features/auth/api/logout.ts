// POST /api/logout: on success the caller goes to /auth, then the whole client cache is cleared.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '@/lib/api-client';
import { forgetUser } from '@/lib/query-client';
import { userQueryKey } from '@/lib/query-keys';
import { markSignedOut } from '@/lib/signed-out';

export function logout() {
  return apiRequest(api.logout.$post());
}

export function useLogout(
  options: { onSuccess?: () => void | Promise<void>; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    // From the moment Logout is pressed: what would read again meanwhile (an unlock marked seen whose answer
    // lands now) reads nothing, since the session may already be gone on the server.
    onMutate: () => markSignedOut(),
    onSuccess: async () => {
      // Signed out on purpose: the protected screen being left must not toast 'Unauthorized'.
      markSignedOut();
      // The user is gone first, so the signed-in screens unmount (the protected frame shows its redirect
      // line); the cache is cleared once the navigation is done. Cleared before, a screen still mounted
      // (the navigation is a transition, and /auth may still be loading) would read its data again and be
      // answered 401.
      queryClient.setQueryData(userQueryKey, null);
      await options.onSuccess?.();
      forgetUser(queryClient);
    },
    onError: (error) => options.onError?.(error),
  });
}
