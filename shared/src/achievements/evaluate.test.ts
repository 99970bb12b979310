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
});
