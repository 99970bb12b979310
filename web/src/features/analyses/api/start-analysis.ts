// POST /api/csp-analyses {domainId, crawlRequest} → 201 Analysis (pending). The server crawls the domain's
// own URL whatever the request says. Invalidates every analysis list (the domain screen's among them).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { api, apiRequest, type JsonOf } from '@/lib/api-client';
import { analysesQueryKey } from './get-analyses';

type StartAnalysis = (typeof api)['csp-analyses']['$post'];
export type StartAnalysisBody = InferRequestType<StartAnalysis>['json'];
type Analysis = JsonOf<Awaited<ReturnType<StartAnalysis>>>;

export function startAnalysis(body: StartAnalysisBody) {
  return apiRequest(api['csp-analyses'].$post({ json: body }));
}

/** The starts of one domain's analyses: every start button of the domain waits while one is in flight. */
export const startAnalysisKey = (domainId: string) => ['start-analysis', domainId] as const;

export function useStartAnalysis(
  domainId: string,
  options: { onSuccess?: (analysis: Analysis) => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: startAnalysisKey(domainId),
    mutationFn: startAnalysis,
    // The user hears at once (the toast), then the lists catch up: on a busy server the refetch of every
    // analysis list can take seconds, and the start buttons stay waiting until it has.
    onSuccess: async (analysis) => {
      options.onSuccess?.(analysis);
      await queryClient.invalidateQueries({ queryKey: analysesQueryKey });
    },
    onError: async (error) => {
      options.onError?.(error);
      // Refused for an analysis already waiting or running (started in another tab): show it.
      await queryClient.invalidateQueries({ queryKey: analysesQueryKey });
    },
  });
}
