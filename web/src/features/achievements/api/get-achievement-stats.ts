// GET /api/achievements/stats: totalAchievements, totalPoints and a count per rarity.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet } from '@/lib/api-client';
import { achievementsQueryKey } from './get-achievements';

export const achievementStatsQueryKey = [...achievementsQueryKey, 'stats'] as const;

export function getAchievementStats() {
  return apiGet(api.achievements.stats.$get());
}

export function getAchievementStatsQueryOptions() {
  return queryOptions({ queryKey: achievementStatsQueryKey, queryFn: getAchievementStats });
}

export function useAchievementStats({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getAchievementStatsQueryOptions(), enabled });
}
