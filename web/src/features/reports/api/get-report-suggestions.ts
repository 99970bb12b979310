// GET /api/domains/:id/report-suggestions?days=: report groups judged against the latest completed crawl.
import { type ReportSuggestionList, reportSuggestionListSchema } from '@csp/shared/schemas/report';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useFetchFailureToast } from '@/hooks/use-fetch-failure-toast';
import { api, apiGet, pathParam } from '@/lib/api-client';
import { REPORTS_REFRESH_MS, reportsQueryKey } from '@/lib/query-keys';
import type { ReportWindow } from './get-reports';

export async function getReportSuggestions(domainId: string, days: number): Promise<ReportSuggestionList> {
  const body = await apiGet(
    api.domains[':id']['report-suggestions'].$get({
      param: { id: pathParam(domainId) },
      query: { days: String(days) },
    }),
  );
  // A 401 on a read is an empty result (spec section 7); the route guard handles the sign-in.
  if (body === null) {
    return { suggestions: [], analysisId: null, days, other: { groups: 0, count: 0, overCap: 0 } };
  }
  return reportSuggestionListSchema.parse(body);
}

export const reportSuggestionsQueryOptions = (domainId: string, days: ReportWindow) =>
  queryOptions({
    queryKey: [...reportsQueryKey(domainId), 'suggestions', days],
    queryFn: () => getReportSuggestions(domainId, days),
    refetchInterval: REPORTS_REFRESH_MS,
  });

export function useReportSuggestions(domainId: string, days: ReportWindow) {
  const query = useQuery(reportSuggestionsQueryOptions(domainId, days));
  useFetchFailureToast(query.error, 'Failed to fetch URI reports');
  return query;
}
