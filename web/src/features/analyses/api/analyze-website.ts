// POST /api/csp/analyze with the crawl request as its body → {success, analysisId, analysis}. The spec notes
// the original page sent no body; ours sends the form's values. Then GET /api/csp/analyze/:id is polled.
import type { CrawlRequest } from '@csp/shared/schemas/analysis';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, type JsonOf } from '@/lib/api-client';
import { analysesQueryKey } from './get-analyses';
import { analysisQueryKey } from './get-analysis';

export function analyzeWebsite(body: CrawlRequest) {
  return apiRequest(api.csp.analyze.$post({ json: body }));
}

export type AnalyzeWebsiteResponse = JsonOf<Awaited<ReturnType<typeof api.csp.analyze.$post>>>;

export function useAnalyzeWebsite(
  options: { onSuccess?: (res: AnalyzeWebsiteResponse) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: analyzeWebsite,
    onSuccess: async (res) => {
      // The answer already holds the new analysis: show it at once, then let polling take over.
      if (res.analysis) queryClient.setQueryData(analysisQueryKey(res.analysisId), res.analysis);
      await queryClient.invalidateQueries({ queryKey: analysesQueryKey, exact: true });
      options.onSuccess?.(res);
    },
    onError: (error) => options.onError?.(error),
  });
}
