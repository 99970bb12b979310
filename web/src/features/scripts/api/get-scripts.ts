// GET /api/domains/:id/scripts: the domain's script inventory, filtered, a page at a time (Load more).
import {
  type ScriptList,
  type ScriptListQuery,
  scriptListSchema,
} from '@csp/shared/schemas/script-inventory';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useFetchFailureToast } from '@/hooks/use-fetch-failure-toast';
import { api, apiGet, pathParam } from '@/lib/api-client';

export type ScriptFilters = Pick<ScriptListQuery, 'state' | 'party' | 'changed'>;

/** Every query of one domain's inventory (list pages and histories) starts with this key. */
export const scriptsQueryKey = (domainId: string) => ['domains', domainId, 'scripts'] as const;

const EMPTY: ScriptList = {
  scripts: [],
  total: 0,
  nextCursor: null,
  counts: { pending: 0, authorized: 0, removed: 0 },
  lastRunAt: null,
  rules: [],
};

export async function getScripts(
  domainId: string,
  filters: ScriptFilters,
  cursor?: string,
): Promise<ScriptList> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) if (value) query[name] = value;
  if (cursor) query.cursor = cursor;
  const body = await apiGet(api.domains[':id'].scripts.$get({ param: { id: pathParam(domainId) }, query }));
  // A 401 on a read is an empty result (spec section 7); the route guard handles the sign-in.
  return body === null ? EMPTY : scriptListSchema.parse(body);
}

export const scriptsQueryOptions = (domainId: string, filters: ScriptFilters) =>
  infiniteQueryOptions({
    queryKey: [...scriptsQueryKey(domainId), 'list', filters],
    queryFn: ({ pageParam }) => getScripts(domainId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export function useScripts(domainId: string, filters: ScriptFilters) {
  const query = useInfiniteQuery(scriptsQueryOptions(domainId, filters));
  useFetchFailureToast(query.error, 'Failed to fetch the script inventory');
  return query;
}
