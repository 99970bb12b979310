// Starting an analysis of a domain, with the spec's messages (section 8): 'Analysis Started' on success; any
// failure but a lost session (the query client handles that) says 'Error: Failed to start analysis. Please
// try again.' — with the server's reason when the domain already has an analysis waiting or running (409
// naming it), and, for the API's refusal of an inactive domain (409), its own reason alone: trying again
// cannot help. `onRefused` lets the screen reload the domain (deactivated in another tab, or started there).
import type { Analysis } from '@csp/shared/schemas/analysis';
import { useIsMutating, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { type StartAnalysisBody, startAnalysisKey, useStartAnalysis } from '../api/start-analysis';

const START_FAILED = 'Failed to start analysis. Please try again.';

export function useStartDomainAnalysis({
  domainId,
  onSuccess,
  onError,
  onRefused,
}: {
  domainId: string;
  onSuccess?: (analysis: Analysis) => void;
  onError?: (error: Error) => void;
  onRefused?: () => void;
}) {
  const queryClient = useQueryClient();
  const mutation = useStartAnalysis(domainId, {
    onSuccess: (analysis) => {
      toast({
        title: 'Analysis Started',
        description: 'Your CSP analysis has been started and will run in the background.',
      });
      onSuccess?.(analysis);
    },
    onError: (error) => {
      const conflict = error instanceof ApiError && error.status === 409 ? error : null;
      // The domain's analysis that waits or runs: the server names it.
      const busy = conflict && typeof conflict.body?.analysisId === 'string';
      // Over a limit (analyses waiting, daily pages): the server says which and until when.
      const limited = error instanceof ApiError && error.status === 429 && error.serverMessage;
      const reason = conflict?.serverMessage;
      toast({
        variant: 'destructive',
        title: 'Error',
        description: busy && reason ? `${START_FAILED} ${reason}` : reason || limited || START_FAILED,
      });
      if (conflict) onRefused?.();
      onError?.(error);
    },
  });
  // Any start of this domain in flight, from this button or another: every start button waits for it.
  const pending = useIsMutating({ mutationKey: startAnalysisKey(domainId) }) > 0;
  const start = (body: Omit<StartAnalysisBody, 'domainId'>) => {
    // Clicks in the same tick arrive before React re-renders the buttons disabled: the mutation cache knows
    // at once (a mutation is pending from the moment it is started), whichever button started it and even
    // if that button has gone since.
    if (queryClient.isMutating({ mutationKey: startAnalysisKey(domainId) }) > 0) return;
    mutation.mutate({ ...body, domainId });
  };
  return { ...mutation, isPending: pending || mutation.isPending, mutate: start };
}
