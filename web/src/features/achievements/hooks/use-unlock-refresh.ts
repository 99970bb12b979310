// Unlocks happen on the server after a write (a domain added, 2FA turned on) or when an analysis finishes.
// The list of unlocks is read again at those moments, wherever the user is, so the overlay shows an unlock
// on the screen where it was earned rather than at the next visit of the dashboard.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { refreshAchievements } from '../api/get-achievements';
import { markSeenMutationKey } from '../api/mark-seen';

/** The `status` of a query's data, when it is one object with a status (an analysis, say). */
function statusOf(data: unknown): string | undefined {
  return data && typeof data === 'object' && 'status' in data && typeof data.status === 'string'
    ? data.status
    : undefined;
}

export function useUnlockRefresh(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const refresh = () => refreshAchievements(queryClient);
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      // Marking an unlock as seen refreshes the list itself.
      if (event.mutation.options.mutationKey === markSeenMutationKey) return;
      refresh();
    });
    // An analysis watched until it finishes (its detail is polled): completed may have unlocked something.
    const statuses = new Map<string, string | undefined>();
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const { queryHash } = event.query;
      const before = statuses.get(queryHash);
      const now = statusOf(event.query.state.data);
      statuses.set(queryHash, now);
      if (now === 'completed' && (before === 'pending' || before === 'running')) refresh();
    });
    return () => {
      stopMutations();
      stopQueries();
    };
  }, [enabled, queryClient]);
}
