// GET /api/domains/:id/report-suggestions?days=: report groups judged against the latest completed crawl.
import { type ReportSuggestionList, reportSuggestionListSchema } from '@csp/shared/schemas/report';
import { useQuery } from '@tanstack/react-query';
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
  return reportSuggestionListSchema.parse(body);
}

export function useReportSuggestions(domainId: string, days: ReportWindow) {
  return useQuery({
    queryKey: [...reportsQueryKey(domainId), 'suggestions', days],
    queryFn: () => getReportSuggestions(domainId, days),
    refetchInterval: REPORTS_REFRESH_MS,
  });
}
