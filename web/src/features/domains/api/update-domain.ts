// PATCH /api/domains/:id: change a domain (here: make it active or inactive); its queries are refetched.
import type { DomainUpdateInput } from '@csp/shared/schemas/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';

export function useUpdateDomain(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DomainUpdateInput) =>
      apiRequest(api.domains[':id'].$patch({ param: { id: pathParam(id) }, json: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainsQueryKey }),
  });
}
