// POST /api/login. The answer is the user: it becomes the cached current user, then the lookup is refreshed.
// A 401 with {twoFactorRequired: true} asks for the second step (resend with `totp`).
import type { LoginInput } from '@csp/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, apiRequest, type JsonOf } from '@/lib/api-client';
import { userQueryKey } from '@/lib/query-keys';

export type LoginBody = LoginInput;

type PublicUser = JsonOf<Awaited<ReturnType<typeof api.login.$post>>>;

export function login(body: LoginBody) {
  return apiRequest(api.login.$post({ json: body }));
}

export function isTwoFactorRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.body?.twoFactorRequired === true;
}

export function useLogin(
  options: { onSuccess?: (user: PublicUser) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async (user) => {
      queryClient.setQueryData(userQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
      options.onSuccess?.(user);
    },
    onError: (error) => options.onError?.(error),
  });
}
