// Spec section 8 "Fetch failures": a read that failed says so in a destructive toast ('Failed to fetch URI
// reports', 'Failed to fetch analyses', 'Failed to fetch CSP configurations'), besides what the screen shows
// in place. Once per failure: the polled reads fail again every refresh, and a toast each time would nag.
import { useEffect } from 'react';
import { toast } from './use-toast';

export function useFetchFailureToast(error: Error | null, title: string) {
  const failing = error !== null;
  const description = error?.message;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast when the read starts failing, not one per refetch's new error text
  useEffect(() => {
    if (failing) toast({ variant: 'destructive', title, description });
  }, [failing, title]);
}
