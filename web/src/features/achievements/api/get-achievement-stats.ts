// GET /api/achievements/stats: totalAchievements, totalPoints and a count per rarity.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';
import { achievementsQueryKey } from './get-achievements';
import type { AchievementStats } from './types';

export const achievementStatsQueryKey = [...achievementsQueryKey, 'stats'] as const;

export function getAchievementStats(): Promise<AchievementStats | null> {
  return apiGet<AchievementStats>('/api/achievements/stats');
}

export function getAchievementStatsQueryOptions() {
  return queryOptions({ queryKey: achievementStatsQueryKey, queryFn: getAchievementStats });
}

export function useAchievementStats({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getAchievementStatsQueryOptions(), enabled });
}
