// What a screen reads first, asked for while the screen's modules load: a route's loader runs beside its
// lazy import (on a page load, before it: router.tsx prefetchFirstScreen), so the data requests no longer
// wait for the screen's code (nor for a render). Only when the
// signed-in marker says a session is likely (a visitor asks nothing: the screen sends them to /auth), and
// beside the current-user lookup, not after it: on a phone's network that is a round trip less before the
// first view. Should the session turn out to be gone, the reads have answered null (a 401 on a read) and
// are forgotten with the user, so nothing of them outlives it. Nothing here decides what a screen shows;
// its own queries read this cache.
import type { QueryClient } from '@tanstack/react-query';
import { getAchievementProgressQueryOptions } from '@/features/achievements/api/get-achievement-progress';
import { getAchievementStatsQueryOptions } from '@/features/achievements/api/get-achievement-stats';
import { getAchievementsQueryOptions } from '@/features/achievements/api/get-achievements';
import { getAnalysesQueryOptions } from '@/features/analyses/api/get-analyses';
import { getUserQueryOptions, maybeSignedIn } from '@/features/auth/api/get-user';
import { getDomainQueryOptions } from '@/features/domains/api/get-domain';
import { getDomainsQueryOptions } from '@/features/domains/api/get-domains';
import { forgetUser } from '@/lib/query-client';

function whenSignedIn(queryClient: QueryClient, prefetch: () => Promise<unknown>): null {
  if (maybeSignedIn()) {
    const data = prefetch().catch(() => {}); // the screen's own queries show any failure
    void queryClient
      .ensureQueryData(getUserQueryOptions())
      .then((user) => (user ? undefined : data.then(() => forgetUser(queryClient))))
      .catch(() => {});
  }
  return null; // a loader answers at once: the screen never waits for it
}

/**
 * The dashboard's lists (its full-screen 'Loading...' waits for them), and the achievements' progress: asked
 * for by the screen's module, it was the last link of a chain (the app's script, the module, then the read)
 * that Lighthouse counted in the largest paint (2.7 → 2.5 s).
 */
export const prefetchDashboard = (queryClient: QueryClient) =>
  whenSignedIn(queryClient, () =>
    Promise.all([
      queryClient.prefetchQuery(getDomainsQueryOptions()),
      queryClient.prefetchQuery(getAnalysesQueryOptions()),
      queryClient.prefetchQuery(getAchievementsQueryOptions()),
      queryClient.prefetchQuery(getAchievementStatsQueryOptions()),
      queryClient.prefetchQuery(getAchievementProgressQueryOptions()),
    ]),
  );

/**
 * The domain and its analyses, side by side: one round trip, not two in a row. The screen asks for the
 * analyses only once the domain is known to exist (a missing one must not also say "Failed to fetch
 * analyses"); a prefetch's refusal is kept quietly in the cache, where that screen never reads it.
 */
export const prefetchDomain = (queryClient: QueryClient, id: string) =>
  whenSignedIn(queryClient, async () => {
    // The read first: the import below asks for its module and the modules it shares with the screen
    // (five files), which would otherwise take five of the six connections before the read is asked.
    const domain = queryClient.prefetchQuery(getDomainQueryOptions(id));
    // Loaded with the screen's modules anyway; imported here so the first download stays without it.
    const analyses = import('@/features/analyses/api/get-domain-analyses').then(
      ({ getDomainAnalysesQueryOptions }) => queryClient.prefetchQuery(getDomainAnalysesQueryOptions(id)),
    );
    await Promise.all([domain, analyses]);
  });
