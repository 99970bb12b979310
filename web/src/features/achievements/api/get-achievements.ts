// GET /api/achievements: the user's unlocked achievements.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';
import type { Achievement } from './types';

export const achievementsQueryKey = ['achievements'] as const;

export async function getAchievements(): Promise<Achievement[]> {
  return (await apiGet<Achievement[]>('/api/achievements')) ?? [];
}

export function getAchievementsQueryOptions() {
  return queryOptions({ queryKey: achievementsQueryKey, queryFn: getAchievements });
}

export function useAchievements({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getAchievementsQueryOptions(), enabled });
}
