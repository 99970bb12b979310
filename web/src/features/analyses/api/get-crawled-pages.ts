// GET /api/csp/analyze/:id/pages → {success, crawledPages}: every URL the crawl tried, with its status and
// what each page loaded (null until the analysis completes). Read once per completed analysis: it never
// changes after.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { analysisQueryKey } from './get-analysis';

export const crawledPagesQueryKey = (id: string) => [...analysisQueryKey(id), 'pages'] as const;

export async function getCrawledPages(id: string) {
  const res = await apiGet(api.csp.analyze[':id'].pages.$get({ param: { id: pathParam(id) } }));
  return res?.crawledPages ?? null;
}

export function useCrawledPages(id: string) {
  return useQuery(
    queryOptions({
      queryKey: crawledPagesQueryKey(id),
      queryFn: () => getCrawledPages(id),
      staleTime: Infinity,
    }),
  );
}
