// From a user's counters to their progress and what they have just unlocked: one pure function, fed with
// the counters after each event (and at read time, for what time alone unlocks).
import { ACHIEVEMENTS, type AchievementDefinition, type Counters } from './catalogue';
import type { AchievementProgress } from './schemas';

const DAY_MS = 86_400_000;

/**
 * The metrics time derives: quietDays counts whole days since reports began, or since the last new
 * suspicious group if later (none before the first report: a quiet week needs a site that reports).
 */
export function deriveMetrics(counters: Counters, nowMs: number): Counters {
  const since = Math.max(counters.firstReportAt ?? 0, counters.lastSuspiciousAt ?? 0);
  const quietDays = counters.firstReportAt ? Math.max(0, Math.floor((nowMs - since) / DAY_MS)) : 0;
  return { ...counters, quietDays };
}

export function evaluateAchievements(
  stored: Counters,
  unlocked: ReadonlySet<string>,
  catalogue: readonly AchievementDefinition[] = ACHIEVEMENTS,
  nowMs = Date.now(),
): { progress: AchievementProgress[]; unlocks: AchievementDefinition[] } {
  const counters = deriveMetrics(stored, nowMs);
  const progress: AchievementProgress[] = [];
  const unlocks: AchievementDefinition[] = [];
  for (const a of catalogue) {
    const current = Math.max(0, counters[a.metric] ?? 0);
    progress.push({
      achievementType: a.type,
      currentValue: Math.min(current, a.target),
      targetValue: a.target,
    });
    if (current >= a.target && !unlocked.has(a.type)) unlocks.push(a);
  }
  return { progress, unlocks };
}
