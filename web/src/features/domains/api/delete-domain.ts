// DELETE /api/domains/:id → {success: true}. Invalidates the domain list (and with it each domain).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { domainsQueryKey } from './get-domains';

export function deleteDomain(id: string): Promise<{ success: boolean }> {
  return apiRequest<{ success: boolean }>('DELETE', `/api/domains/${encodeURIComponent(id)}`);
}

export function useDeleteDomain(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: domainsQueryKey });
      options.onSuccess?.();
    },
    onError: (error) => options.onError?.(error),
  });
}
