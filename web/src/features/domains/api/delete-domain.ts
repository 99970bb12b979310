// DELETE /api/domains/:id → {success: true}. The domain leaves the cached list at once; every domain query
// is then marked stale without refetching, so the screen of the deleted domain (still mounted until the
// caller navigates away) does not ask for it again and get a 404.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';
import type { SeenDomain } from './get-domains';

export function deleteDomain(id: string) {
  return apiRequest(api.domains[':id'].$delete({ param: { id: pathParam(id) } }));
}

export function useDeleteDomain(options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: async (_res, id) => {
      queryClient.setQueryData<SeenDomain[]>(domainsQueryKey, (list) => list?.filter((d) => d.id !== id));
      await queryClient.invalidateQueries({ queryKey: domainsQueryKey, refetchType: 'none' });
      options.onSuccess?.();
    },
    onError: (error) => options.onError?.(error),
  });
}
