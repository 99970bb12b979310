// Save (spec section 4): POST /api/csp-configurations for a new configuration, PUT /api/csp-configurations/:id
// for a loaded one. The list is refetched either way.
import type { ConfigurationBody } from '@csp/shared/schemas/configuration';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { configurationsQueryKey } from './get-configurations';

export function useSaveConfiguration(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ConfigurationBody }) =>
      id
        ? apiRequest(api['csp-configurations'][':id'].$put({ param: { id: pathParam(id) }, json: body }))
        : apiRequest(api['csp-configurations'].$post({ json: { ...body, domainId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationsQueryKey(domainId) }),
  });
}

export function useDeleteConfiguration(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(api['csp-configurations'][':id'].$delete({ param: { id: pathParam(id) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationsQueryKey(domainId) }),
  });
}
