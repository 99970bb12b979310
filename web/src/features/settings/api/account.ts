// The signed-in user's own account (spec section 7): PATCH /api/user/profile, PATCH /api/user/password and
// the 2FA calls. Each success refreshes the current user (and the count of recovery codes left).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { api, apiRequest } from '@/lib/api-client';
import { userQueryKey } from '@/lib/query-keys';

const recoveryCodesQueryKey = ['user', '2fa', 'recovery-codes'] as const;

function useAccountMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  // The user's key is a prefix of the recovery codes' key: both are refreshed.
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

/** Abandons a setup that was not verified: 2FA stays off. */
export const useCancelTwoFactorSetup = () =>
  useMutation({ mutationFn: () => apiRequest(api.user['2fa'].cancel.$post()) });

export const useVerifyTwoFactor = () =>
  useAccountMutation((token: string) => apiRequest(api.user['2fa'].verify.$post({ json: { token } })));

export const useDisableTwoFactor = () =>
  useAccountMutation((input: InferRequestType<(typeof api.user)['2fa']['disable']['$post']>['json']) =>
    apiRequest(api.user['2fa'].disable.$post({ json: input })),
  );

/** How many unused recovery codes the user has (2FA on). */
export const useRecoveryCodesLeft = () =>
  useQuery({
    queryKey: recoveryCodesQueryKey,
    queryFn: () => apiRequest(api.user['2fa']['recovery-codes'].$get()),
  });

/** New recovery codes (the old ones stop working), behind the password. */
export const useRegenerateRecoveryCodes = () =>
  useAccountMutation((password: string) =>
    apiRequest(api.user['2fa']['recovery-codes'].$post({ json: { password } })),
  );
