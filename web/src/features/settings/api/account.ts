// The signed-in user's own account (spec section 7): PATCH /api/user/profile, PATCH /api/user/password and
// the 2FA calls. Each success refreshes the current user.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { api, apiRequest } from '@/lib/api-client';
import { userQueryKey } from '@/lib/query-keys';

function useAccountMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryKey }),
  });
}

export type ProfileInput = InferRequestType<typeof api.user.profile.$patch>['json'];

export const useUpdateProfile = () =>
  useAccountMutation((input: ProfileInput) => apiRequest(api.user.profile.$patch({ json: input })));

export const useChangePassword = () =>
  useAccountMutation((input: InferRequestType<typeof api.user.password.$patch>['json']) =>
    apiRequest(api.user.password.$patch({ json: input })),
  );

export const useSetupTwoFactor = () =>
  useMutation({ mutationFn: () => apiRequest(api.user['2fa'].setup.$post()) });

export const useVerifyTwoFactor = () =>
  useAccountMutation((token: string) => apiRequest(api.user['2fa'].verify.$post({ json: { token } })));

export const useDisableTwoFactor = () =>
  useAccountMutation((input: InferRequestType<(typeof api.user)['2fa']['disable']['$post']>['json']) =>
    apiRequest(api.user['2fa'].disable.$post({ json: input })),
  );
