// POST /api/domains {name, url, isActive} → 201 Domain. Invalidates the domain list.
import type { Domain, DomainCreateInput } from '@csp/shared/schemas/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export function createDomain(body: DomainCreateInput): Promise<Domain> {
  return apiRequest<Domain>('POST', '/api/domains', body);
}

export function useCreateDomain(
  options: { onSuccess?: (domain: Domain) => void; onError?: (error: Error) => void } = {},
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
