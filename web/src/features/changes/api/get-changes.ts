// GET /api/domains/:id/changes: the domain's compared runs (what changed from one analysis to the next, and
// the drift from the saved policy), newest first, a page at a time (Load more). Read-only for everybody.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useFetchFailureToast } from '@/hooks/use-fetch-failure-toast';
import { api, apiGet, type JsonOf, pathParam } from '@/lib/api-client';

type ChangesPage = JsonOf<Awaited<ReturnType<(typeof api.domains)[':id']['changes']['$get']>>>;
/** One compared run as the API lists it (its counts, changes and drift). */
export type ChangedRun = ChangesPage['runs'][number];

export const changesQueryKey = (domainId: string) => ['domains', domainId, 'changes'] as const;

const EMPTY: ChangesPage = { runs: [], nextCursor: null };

export async function getChanges(domainId: string, cursor?: string): Promise<ChangesPage> {
  const body = await apiGet(
    api.domains[':id'].changes.$get({ param: { id: pathParam(domainId) }, query: cursor ? { cursor } : {} }),
  );
  // A 401 on a read is an empty result (spec section 7); the route guard handles the sign-in.
  return body ?? EMPTY;
}

export const changesQueryOptions = (domainId: string) =>
  infiniteQueryOptions({
    queryKey: changesQueryKey(domainId),
    queryFn: ({ pageParam }) => getChanges(domainId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export function useChanges(domainId: string) {
  const query = useInfiniteQuery(changesQueryOptions(domainId));
  useFetchFailureToast(query.error, 'Failed to fetch the changes');
  return query;
}
