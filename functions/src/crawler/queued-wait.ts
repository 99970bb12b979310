// How an analysis waits for one of its user's run slots without crowding the crawl queue. Its re-check
// message goes back into the user's own group (fair queues serve other users' groups first), and the wait
// grows with each look (base, 2×, 4×, 8×, jittered so a user's waiting analyses do not all look at once).
// Waiting long is cheap because a run that frees a slot wakes the user's oldest waiting analysis at once:
// the re-check is only the safety net for a run that died before it could.

import type { Logger } from '../logger';
import type { AnalysisQueue } from '../queue/queue';
import { waitingAnalysisIds } from '../store/crawl-quota';
import type { Db } from '../store/db';

/** Seconds before the `look`-th look (1 = the first time it found no free slot), jittered ±25 %. */
export function queuedRecheckSeconds(baseSeconds: number, look: number, random = Math.random()): number {
  const factor = 2 ** Math.min(3, Math.max(0, look - 1));
  return Math.max(1, Math.round(baseSeconds * factor * (0.75 + random * 0.5)));
}

/**
 * A slot of the user's was freed: the oldest of their waiting analyses is sent now, in their group. A
 * message for an analysis that already has one is harmless (a run claims it once; the other finds it held).
 */
export async function wakeNextWaiting(db: Db, queue: AnalysisQueue, userId: string, log: Logger) {
  try {
    const [next] = await waitingAnalysisIds(db, userId);
    if (next) await queue.send({ analysisId: next }, { group: userId });
  } catch (err) {
    // The re-check still comes: waking early is an optimisation, never the only way on.
    log.warn('could not wake the next waiting analysis', { error: String(err) });
  }
}
