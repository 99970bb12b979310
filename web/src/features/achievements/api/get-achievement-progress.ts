// GET /api/achievements/progress: current and target value of every achievement, for the progress bars.
import type { AchievementProgress } from '@csp/shared/achievements/catalogue';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/api-client';
import { achievementsQueryKey } from './get-achievements';

export const achievementProgressQueryKey = [...achievementsQueryKey, 'progress'] as const;

export function getAchievementProgress(): Promise<AchievementProgress[] | null> {
  return apiGet<AchievementProgress[]>('/api/achievements/progress');
}

export function useAchievementProgress({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery(
    queryOptions({ queryKey: achievementProgressQueryKey, queryFn: getAchievementProgress, enabled }),
  );
}
