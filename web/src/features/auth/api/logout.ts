// POST /api/logout: on success the whole client cache is cleared (the caller then goes to /auth).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export function logout(): Promise<{ success: boolean }> {
  return apiRequest<{ success: boolean }>('POST', '/api/logout');
}

export function useLogout(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => {
      queryClient.clear();
      options.onSuccess?.();
    },
    onError: (error) => options.onError?.(error),
  });
}
