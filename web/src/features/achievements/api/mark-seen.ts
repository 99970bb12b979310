// POST /api/achievements/:type/seen: the overlay showed this unlock; it is not shown again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, apiRequest, pathParam } from '@/lib/api-client';
import { achievementsQueryKey, refreshAchievements } from './get-achievements';

export const markSeenMutationKey = [...achievementsQueryKey, 'seen'] as const;

export function useMarkSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: markSeenMutationKey,
    mutationFn: (type: string) =>
      apiRequest(api.achievements[':type'].seen.$post({ param: { type: pathParam(type) } })),
    onSettled: () => refreshAchievements(queryClient),
  });
}
