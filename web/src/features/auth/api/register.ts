// POST /api/register: creates the account and signs it in (201 with the user).
import type { RegisterInput } from '@csp/shared/schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, type JsonOf } from '@/lib/api-client';
import { userQueryKey } from '@/lib/query-keys';

export type RegisterBody = RegisterInput;

type PublicUser = JsonOf<Awaited<ReturnType<typeof api.register.$post>>>;

export function register(body: RegisterBody) {
  return apiRequest(api.register.$post({ json: body }));
}

export function useRegister(
  options: { onSuccess?: (user: PublicUser) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: async (user) => {
      queryClient.setQueryData(userQueryKey, user);
      await queryClient.invalidateQueries({ queryKey: userQueryKey });
      options.onSuccess?.(user);
    },
    onError: (error) => options.onError?.(error),
  });
}
