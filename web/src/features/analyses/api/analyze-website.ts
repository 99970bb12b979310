// POST /api/csp/analyze with the crawl request as its body → {success, analysisId, analysis}. The spec notes
// the original page sent no body; ours sends the form's values. Then GET /api/csp/analyze/:id is polled.
import type { Analysis, CrawlRequest } from '@csp/shared/schemas/analysis';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { analysesQueryKey } from './get-analyses';
import { analysisQueryKey } from './get-analysis';

export interface AnalyzeWebsiteResponse {
  success: boolean;
  analysisId: string;
  analysis?: Analysis;
}

export function analyzeWebsite(body: CrawlRequest): Promise<AnalyzeWebsiteResponse> {
  return apiRequest<AnalyzeWebsiteResponse>('POST', '/api/csp/analyze', body);
}

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
