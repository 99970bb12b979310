// GET /api/achievements: the user's unlocked achievements.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet } from '@/lib/api-client';

export const achievementsQueryKey = ['achievements'] as const;

export async function getAchievements() {
  return (await apiGet(api.achievements.$get())) ?? [];
}

export function getAchievementsQueryOptions() {
  return queryOptions({ queryKey: achievementsQueryKey, queryFn: getAchievements });
}

export function useAchievements({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getAchievementsQueryOptions(), enabled });
}
