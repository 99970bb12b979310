// GET /api/achievements: the user's unlocked achievements.
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api, apiGet } from '@/lib/api-client';
import { userQueryKey } from '@/lib/query-keys';
import { wasSignedOutOnPurpose } from '@/lib/signed-out';

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

/**
 * Reads the unlocks (and their stats and progress) again, unless the user is signing out or gone: a read
 * sent then is answered 401 (an unlock marked seen, say, whose answer lands while Logout is on its way).
 */
export function refreshAchievements(queryClient: QueryClient): void {
  if (wasSignedOutOnPurpose() || !queryClient.getQueryData(userQueryKey)) return;
  void queryClient.invalidateQueries({ queryKey: achievementsQueryKey });
}
