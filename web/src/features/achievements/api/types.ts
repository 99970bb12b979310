// Achievement shapes as the API returns them (spec section 3). Rarities are a closed vocabulary.
export const RARITIES = ['common', 'rare', 'epic', 'legendary'] as const;
export type Rarity = (typeof RARITIES)[number];

export interface Achievement {
  id: string;
  type: string;
  title: string;
  description: string;
  icon: string;
  rarity: Rarity | string;
  points: number;
  unlockedAt: string;
  /** The overlay has shown it (once per unlock). */
  seen?: boolean;
  /** Present when the API joins the progress item of this achievement's type. */
  progress?: { currentValue: number; targetValue: number } | null;
}

export interface AchievementStats {
  totalAchievements: number;
  totalPoints: number;
  rarityBreakdown: Partial<Record<Rarity, number>> & Record<string, number>;
}
