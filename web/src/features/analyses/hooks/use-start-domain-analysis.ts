// Starting an analysis of a domain, with the spec's messages (section 8): 'Analysis Started' on success; a
// 401 says 'Unauthorized: You are logged out. Logging in again...' and signs in again after 500 ms; any
// other failure says 'Error: Failed to start analysis. Please try again.'
import type { Analysis } from '@csp/shared/schemas/analysis';
import { useEffect, useRef } from 'react';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { useStartAnalysis } from '../api/start-analysis';

export const LOGGED_OUT_REDIRECT_MS = 500;

export function useStartDomainAnalysis({
  onLoggedOut,
  onSuccess,
  onError,
}: {
  onLoggedOut: () => void;
  onSuccess?: (analysis: Analysis) => void;
  onError?: (error: Error) => void;
}) {
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  return useStartAnalysis({
    onSuccess: (analysis) => {
      toast({
        title: 'Analysis Started',
        description: 'Your CSP analysis has been started and will run in the background.',
      });
      onSuccess?.(analysis);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) {
        toast({
          variant: 'destructive',
          title: 'Unauthorized',
          description: 'You are logged out. Logging in again...',
        });
        redirectTimer.current = setTimeout(onLoggedOut, LOGGED_OUT_REDIRECT_MS);
        return;
      }
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'Failed to start analysis. Please try again.',
      });
      onError?.(error);
    },
  });
}
