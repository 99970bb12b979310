// POST /api/achievements/:type/seen: the overlay showed this unlock; it is not shown again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { achievementsQueryKey } from './get-achievements';

export function useMarkSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: string) =>
      apiRequest<{ success: boolean }>('POST', `/api/achievements/${encodeURIComponent(type)}/seen`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: achievementsQueryKey }),
  });
}
