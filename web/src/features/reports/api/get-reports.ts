// GET /api/domains/:id/uri-reports?days=1|3|7: the window's reports, newest first, a page at a time, with
// exact counts per group and per hour. Refreshed every 30 s (spec section 7).
import type { REPORT_LIMITS } from '@csp/shared/reports/limits';
import { type ReportList, reportListSchema } from '@csp/shared/schemas/report';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useFetchFailureToast } from '@/hooks/use-fetch-failure-toast';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { REPORTS_REFRESH_MS, reportsQueryKey } from '@/lib/query-keys';

export type ReportWindow = (typeof REPORT_LIMITS.windowsDays)[number];

export async function getReports(domainId: string, days: number, cursor?: string): Promise<ReportList> {
  const body = await apiGet(
    api.domains[':id']['uri-reports'].$get({
      param: { id: pathParam(domainId) },
      query: { days: String(days), ...(cursor ? { cursor } : {}) },
    }),
  );
  // A 401 on a read is an empty result (spec section 7); the route guard handles the sign-in.
  return body === null ? emptyReportList(days) : reportListSchema.parse(body);
}

/** No reports in the window (what a read without a session yields). */
export const emptyReportList = (days: number): ReportList => ({
  reports: [],
  total: 0,
  stored: 0,
  counts: [],
  groupTotal: 0,
  groupOffset: 0,
  other: { groups: 0, count: 0, overCap: 0 },
  hourly: [],
  dropped: {},
  nextCursor: null,
  days,
  endpoint: '',
});

export const reportsQueryOptions = (domainId: string, days: ReportWindow) =>
  infiniteQueryOptions({
    queryKey: [...reportsQueryKey(domainId), days],
    queryFn: ({ pageParam }) => getReports(domainId, days, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: REPORTS_REFRESH_MS,
  });

export function useReports(domainId: string, days: ReportWindow) {
  const query = useInfiniteQuery(reportsQueryOptions(domainId, days));
  useFetchFailureToast(query.error, 'Failed to fetch URI reports');
  return query;
}
