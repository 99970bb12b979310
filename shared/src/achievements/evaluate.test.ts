import { describe, expect, it } from 'vitest';
import { ACHIEVEMENTS, RARITIES } from './catalogue';
import { evaluateAchievements } from './evaluate';

describe('achievements', () => {
  it('the catalogue has at least 12, every rarity, unique types and positive targets', () => {
    expect(ACHIEVEMENTS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(ACHIEVEMENTS.map((a) => a.rarity))).toEqual(new Set(RARITIES));
    expect(new Set(ACHIEVEMENTS.map((a) => a.type)).size).toBe(ACHIEVEMENTS.length);
    expect(ACHIEVEMENTS.every((a) => a.target > 0 && a.points > 0)).toBe(true);
  });

  it('unlocks what reached its target, once, and reports progress capped at the target', () => {
    const first = evaluateAchievements({ domains: 1, analyses: 3 }, new Set());
    expect(first.unlocks.map((a) => a.type).sort()).toEqual(['first-analysis', 'first-domain']);
    expect(first.progress.find((p) => p.achievementType === 'ten-analyses')).toEqual({
      achievementType: 'ten-analyses',
      currentValue: 3,
      targetValue: 10,
    });
    expect(first.progress.find((p) => p.achievementType === 'first-domain')?.currentValue).toBe(1);
    const again = evaluateAchievements(
      { domains: 2, analyses: 3 },
      new Set(['first-domain', 'first-analysis']),
    );
    expect(again.unlocks).toEqual([]);
  });

  it('unlocks Quiet Week 7 days after reports began, unless a new suspicious group came later', () => {
    const day = 86_400_000;
    const start = Date.UTC(2026, 10, 1);
    const quiet = (counters: Parameters<typeof evaluateAchievements>[0], now: number) =>
      evaluateAchievements(counters, new Set(), undefined, now);
    const typesOf = (r: ReturnType<typeof quiet>) => r.unlocks.map((a) => a.type);
    // No reports yet: no streak, however long.
    expect(
      quiet({}, start + 30 * day).progress.find((p) => p.achievementType === 'quiet-week')?.currentValue,
    ).toBe(0);
    expect(typesOf(quiet({ firstReportAt: start }, start + 7 * day - 1))).not.toContain('quiet-week');
    expect(quiet({ firstReportAt: start }, start + 6.5 * day).progress).toContainEqual({
      achievementType: 'quiet-week',
      currentValue: 6,
      targetValue: 7,
    });
    expect(typesOf(quiet({ firstReportAt: start }, start + 7 * day))).toContain('quiet-week');
    // A new suspicious group on day 3 restarts the week.
    const reset = { firstReportAt: start, lastSuspiciousAt: start + 3 * day };
    expect(typesOf(quiet(reset, start + 9 * day))).not.toContain('quiet-week');
    expect(typesOf(quiet(reset, start + 10 * day))).toContain('quiet-week');
  });
});
