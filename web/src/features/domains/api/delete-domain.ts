// DELETE /api/domains/:id → {success: true}. The domain leaves the cached list at once; every domain query
// is then marked stale without refetching, so the screen of the deleted domain (still mounted until the
// caller navigates away) does not ask for it again and get a 404.
import type { Domain } from '@csp/shared/schemas/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export function deleteDomain(id: string): Promise<{ success: boolean }> {
  return apiRequest<{ success: boolean }>('DELETE', `/api/domains/${encodeURIComponent(id)}`);
}

export function useDeleteDomain(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: async (_res, id) => {
      queryClient.setQueryData<Domain[]>(domainsQueryKey, (list) => list?.filter((d) => d.id !== id));
      await queryClient.invalidateQueries({ queryKey: domainsQueryKey, refetchType: 'none' });
      options.onSuccess?.();
    },
    onError: (error) => options.onError?.(error),
  });
}
