// DELETE /api/uri-reports/:id: one report. The domain's report queries are refetched: counts and
// suggestions change with the list. (Clearing all of them: clear-reports.ts.)
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { reportsQueryKey } from '@/lib/query-keys';

interface Callbacks {
  onSuccess?: () => void;
  onError?: (error: Error) => void;
}

export function useDeleteReport(domainId: string, callbacks: Callbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(api['uri-reports'][':id'].$delete({ param: { id: pathParam(id) } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: reportsQueryKey(domainId) });
      callbacks.onSuccess?.();
    },
    onError: (error) => callbacks.onError?.(error),
  });
}
