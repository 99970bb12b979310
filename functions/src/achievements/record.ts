// Feeding achievements where things happen: a domain added, an analysis completed, 2FA turned on, reports
// received. The counters change atomically, the shared rule says what unlocked, each unlock is stored once.
// An achievement must never break what earned it: failures are logged, not thrown.
import type { AchievementDefinition, Counters } from '@csp/shared/achievements/catalogue';
import { evaluateAchievements } from '@csp/shared/achievements/evaluate';
import type { Logger } from '../logger';
import {
  type CounterChange,
  getCounters,
  listUserAchievements,
  putUnlock,
  updateCounters,
} from '../store/achievements';
import type { Db } from '../store/db';

export async function recordAchievementEvent(
  db: Db,
  log: Pick<Logger, 'warn'>,
  userId: string,
  change: CounterChange,
): Promise<AchievementDefinition[]> {
  try {
    // No change: what time alone unlocks (Quiet Week), checked when the user reads their achievements.
    const changes = Object.values(change).some((c: Counters | undefined) => c && Object.keys(c).length > 0);
    const counters = changes ? await updateCounters(db, userId, change) : await getCounters(db, userId);
    const unlocked = new Set((await listUserAchievements(db, userId)).map((a) => a.type));
    const { unlocks } = evaluateAchievements(counters, unlocked);
    const stored: AchievementDefinition[] = [];
    for (const a of unlocks) if (await putUnlock(db, userId, a)) stored.push(a);
    return stored;
  } catch (err) {
    log.warn('achievements not updated', { userId, error: err instanceof Error ? err.message : String(err) });
    return [];
  }
}
