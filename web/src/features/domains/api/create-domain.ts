// POST /api/domains {name, url, isActive} → 201 Domain. Invalidates the domain list.
import type { DomainCreateInput } from '@csp/shared/schemas/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';
import type { SeenDomain } from './get-domains';

export function createDomain(body: DomainCreateInput) {
  return apiRequest(api.domains.$post({ json: body }));
}

export function useCreateDomain(
  // The created domain has no watch figures yet (the list reads them).
  options: { onSuccess?: (domain: Omit<SeenDomain, 'watch'>) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDomain,
    onSuccess: async (domain) => {
      await queryClient.invalidateQueries({ queryKey: domainsQueryKey });
      options.onSuccess?.(domain);
    },
    onError: (error) => options.onError?.(error),
  });
}
