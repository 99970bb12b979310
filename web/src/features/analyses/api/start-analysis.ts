// POST /api/csp-analyses {domainId, crawlRequest} → 201 Analysis (pending). The server crawls the domain's
// own URL whatever the request says. Invalidates every analysis list (the domain screen's among them).
import type { Analysis, CrawlRequest } from '@csp/shared/schemas/analysis';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { analysesQueryKey } from './get-analyses';

export interface StartAnalysisBody {
  domainId: string;
  crawlRequest: Partial<Omit<CrawlRequest, 'url'>>;
}

export function startAnalysis(body: StartAnalysisBody): Promise<Analysis> {
  return apiRequest<Analysis>('POST', '/api/csp-analyses', body);
}

export function useStartAnalysis(
  options: { onSuccess?: (analysis: Analysis) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startAnalysis,
    onSuccess: async (analysis) => {
      await queryClient.invalidateQueries({ queryKey: analysesQueryKey });
      options.onSuccess?.(analysis);
    },
    onError: (error) => options.onError?.(error),
  });
}
