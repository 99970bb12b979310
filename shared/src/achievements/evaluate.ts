// From a user's counters to their progress and what they have just unlocked: one pure function, fed with
// the counters after each event.
import {
  ACHIEVEMENTS,
  type AchievementDefinition,
  type AchievementProgress,
  type Counters,
} from './catalogue';

export function evaluateAchievements(
  counters: Counters,
  unlocked: ReadonlySet<string>,
  catalogue: readonly AchievementDefinition[] = ACHIEVEMENTS,
): { progress: AchievementProgress[]; unlocks: AchievementDefinition[] } {
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
