// POST /api/logout: on success the whole client cache is cleared (the caller then goes to /auth).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '@/lib/api-client';
import { markSignedOut } from '@/lib/signed-out';

export function logout() {
  return apiRequest(api.logout.$post());
}

export function useLogout(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      // Signed out on purpose: the protected screen being left must not toast 'Unauthorized'.
      markSignedOut();
      queryClient.clear();
      options.onSuccess?.();
    },
    onError: (error) => options.onError?.(error),
  });
}
