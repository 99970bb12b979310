// Achievement shapes as the API returns them (spec section 3), from the API's own routes. Rarities are the
// catalogue's closed vocabulary.
import type { Rarity } from '@csp/shared/achievements/catalogue';
import type { api, JsonOf } from '@/lib/api-client';

export { RARITIES, type Rarity } from '@csp/shared/achievements/catalogue';

type Unlocked = JsonOf<Awaited<ReturnType<typeof api.achievements.$get>>>[number];
type Stats = JsonOf<Awaited<ReturnType<typeof api.achievements.stats.$get>>>;

/** An unlocked achievement; the card joins the progress item of its type to the locked ones it shows. */
export type Achievement = Unlocked & { progress?: { currentValue: number; targetValue: number } | null };

/** The API's stats, or the same counted from the list while they load (then only the rarities present). */
export type AchievementStats = Omit<Stats, 'rarityBreakdown'> & {
  rarityBreakdown: Partial<Record<Rarity, number>> & Record<string, number>;
};
