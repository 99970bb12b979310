// The signed-in user's own account (spec section 7): PATCH /api/user/profile, PATCH /api/user/password and
// the 2FA calls. Each success refreshes the current user.
import type { PublicUser } from '@csp/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { userQueryKey } from '@/lib/query-keys';

function useAccountMutation<I, O>(call: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userQueryKey }),
  });
}

export interface ProfileInput {
  firstName?: string;
  lastName?: string;
  email?: string;
  currentPassword?: string;
}

export const useUpdateProfile = () =>
  useAccountMutation((input: ProfileInput) => apiRequest<PublicUser>('PATCH', '/api/user/profile', input));

export const useChangePassword = () =>
  useAccountMutation((input: { currentPassword: string; newPassword: string; confirmPassword: string }) =>
    apiRequest<{ success: boolean }>('PATCH', '/api/user/password', input),
  );

export const useSetupTwoFactor = () =>
  useMutation({
    mutationFn: () => apiRequest<{ qrCodeUrl: string; secret: string }>('POST', '/api/user/2fa/setup'),
  });

export const useVerifyTwoFactor = () =>
  useAccountMutation((token: string) => apiRequest<PublicUser>('POST', '/api/user/2fa/verify', { token }));

export const useDisableTwoFactor = () =>
  useAccountMutation((input: { password?: string; token?: string }) =>
    apiRequest<PublicUser>('POST', '/api/user/2fa/disable', input),
  );
