// Starting an analysis of a domain, with the spec's messages (section 8): 'Analysis Started' on success; any
// failure but a lost session (the query client handles that) says 'Error: Failed to start analysis. Please
// try again.' — except the API's refusal of an inactive domain (409), where trying again cannot help: its
// own reason is shown, and `onRefused` lets the screen reload the domain (deactivated in another tab).
import type { Analysis } from '@csp/shared/schemas/analysis';
import { useRef } from 'react';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { type StartAnalysisBody, useStartAnalysis } from '../api/start-analysis';

export function useStartDomainAnalysis({
  onSuccess,
  onError,
  onRefused,
}: {
  onSuccess?: (analysis: Analysis) => void;
  onError?: (error: Error) => void;
  onRefused?: () => void;
} = {}) {
  // A double click sends two clicks before React re-renders the button disabled: one start at a time.
  const inFlight = useRef(false);
  const mutation = useStartAnalysis({
    onSuccess: (analysis) => {
      toast({
        title: 'Analysis Started',
        description: 'Your CSP analysis has been started and will run in the background.',
      });
      onSuccess?.(analysis);
    },
    onError: (error) => {
      const refused = error instanceof ApiError && error.status === 409 && error.serverMessage;
      // Over a limit (analyses waiting, daily pages): the server says which and until when.
      const limited = error instanceof ApiError && error.status === 429 && error.serverMessage;
      toast({
        variant: 'destructive',
        title: 'Error',
        description: refused || limited || 'Failed to start analysis. Please try again.',
      });
      if (refused) onRefused?.();
      onError?.(error);
    },
  });
  const start = (body: StartAnalysisBody) => {
    if (inFlight.current) return;
    inFlight.current = true;
    mutation.mutate(body, {
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };
  return { ...mutation, mutate: start };
}
