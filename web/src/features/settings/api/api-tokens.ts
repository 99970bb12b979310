// Settings › API tokens: GET, POST /api/user/api-tokens and DELETE /api/user/api-tokens/:id. The list never
// holds a token's value; the creation answer does, once: that mutation is dropped from the mutation cache as
// soon as nothing observes it (gcTime 0), so the value lives only as long as the dialog that shows it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { api, apiGet, apiRequest, pathParam } from '@/lib/api-client';

const apiTokensQueryKey = ['user', 'api-tokens'] as const;

export type CreateApiTokenInput = InferRequestType<(typeof api.user)['api-tokens']['$post']>['json'];

export const useApiTokens = () =>
  useQuery({
    queryKey: apiTokensQueryKey,
    queryFn: () => apiGet(api.user['api-tokens'].$get()),
  });

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) => apiRequest(api.user['api-tokens'].$post({ json: input })),
    gcTime: 0,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(api.user['api-tokens'][':id'].$delete({ param: { id: pathParam(id) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });
}
