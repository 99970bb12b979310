// The admin API (spec section 7): the three lists a page at a time, the role change and the deletions.
// Every change refetches the lists (a deleted user takes their domains and analyses along).
import {
  type AdminAnalysisList,
  type AdminDomainList,
  type AdminUserList,
  adminAnalysisListSchema,
  adminDomainListSchema,
  adminUserListSchema,
} from '@csp/shared/schemas/admin';
import type { Role } from '@csp/shared/schemas/auth';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientResponse } from 'hono/client';
import type * as z from 'zod';
import { toast } from '@/hooks/use-toast';
import { ApiError, api, apiGet, apiRequest, pathParam } from '@/lib/api-client';

export const ADMIN_LISTS = {
  users: adminUserListSchema,
  domains: adminDomainListSchema,
  analyses: adminAnalysisListSchema,
} as const;
export type AdminListName = keyof typeof ADMIN_LISTS;
export type AdminList<N extends AdminListName> = N extends 'users'
  ? AdminUserList
  : N extends 'domains'
    ? AdminDomainList
    : AdminAnalysisList;

export const adminQueryKey = ['admin'] as const;

async function getAdminList<N extends AdminListName>(name: N, cursor?: string): Promise<AdminList<N>> {
  // Any of the three lists: its body is checked with the list's schema below.
  const request: Promise<ClientResponse<unknown>> = api.admin[name].$get({ query: cursor ? { cursor } : {} });
  const body = await apiGet(request);
  const schema: z.ZodType = ADMIN_LISTS[name];
  return (body === null ? { items: [], total: 0, nextCursor: null } : schema.parse(body)) as AdminList<N>;
}

export function useAdminList<N extends AdminListName>(name: N) {
  return useInfiniteQuery({
    queryKey: [...adminQueryKey, name],
    queryFn: ({ pageParam }) => getAdminList(name, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * A change, with its toasts here rather than at the call: a deleted row's button unmounts when the list
 * refetches, and a call's own callbacks would not run any more.
 */
function useAdminMutation<I>(call: (input: I) => Promise<unknown>, success: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      toast({ title: success });
      await queryClient.invalidateQueries({ queryKey: adminQueryKey });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: error instanceof ApiError ? (error.serverMessage ?? error.message) : error.message,
      });
    },
  });
}

export const useChangeRole = () =>
  useAdminMutation(
    ({ id, role }: { id: string; role: Role }) =>
      apiRequest(api.admin.users[':id'].$put({ param: { id: pathParam(id) }, json: { role } })),
    'User role updated successfully',
  );

const DELETED: Record<AdminListName, string> = {
  users: 'User deleted successfully',
  domains: 'Domain deleted successfully',
  analyses: 'Analysis deleted successfully',
};

export const useAdminDelete = (name: AdminListName) =>
  useAdminMutation(
    (id: string) => apiRequest(api.admin[name][':id'].$delete({ param: { id: pathParam(id) } })),
    DELETED[name],
  );
