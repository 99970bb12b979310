// Save (spec section 4): POST /api/csp-configurations for a new configuration, PUT /api/csp-configurations/:id
// for a loaded one. The list is refetched either way.
import type { Configuration, ConfigurationBody } from '@csp/shared/schemas/configuration';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { configurationsQueryKey } from './get-configurations';

export function useSaveConfiguration(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: ConfigurationBody }) =>
      id
        ? apiRequest<Configuration>('PUT', `/api/csp-configurations/${encodeURIComponent(id)}`, body)
        : apiRequest<Configuration>('POST', '/api/csp-configurations', { ...body, domainId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationsQueryKey(domainId) }),
  });
}

export function useDeleteConfiguration(domainId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<{ success: boolean }>('DELETE', `/api/csp-configurations/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationsQueryKey(domainId) }),
  });
}
