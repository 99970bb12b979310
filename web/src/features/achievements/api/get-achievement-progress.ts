// GET /api/achievements/progress: current and target value of every achievement, for the progress bars.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet } from '@/lib/api-client';
import { achievementsQueryKey } from './get-achievements';

export const achievementProgressQueryKey = [...achievementsQueryKey, 'progress'] as const;

export function getAchievementProgress() {
  return apiGet(api.achievements.progress.$get());
}

export const getAchievementProgressQueryOptions = () =>
  queryOptions({ queryKey: achievementProgressQueryKey, queryFn: getAchievementProgress });

export function useAchievementProgress({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getAchievementProgressQueryOptions(), enabled });
}
