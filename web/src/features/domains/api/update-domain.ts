// PATCH /api/domains/:id: change a domain (here: make it active or inactive); its queries are refetched.
import type { Domain, DomainUpdateInput } from '@csp/shared/schemas/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export function useUpdateDomain(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DomainUpdateInput) =>
      apiRequest<Domain>('PATCH', `/api/domains/${encodeURIComponent(id)}`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainsQueryKey }),
  });
}
