// The zod schemas of achievements as stored and as the API answers them (spec section 3). Apart from the
// catalogue (catalogue.ts): the dashboard shows the catalogue and loads no zod.
import * as z from 'zod';
import { METRICS, RARITIES, TIME_MARKS } from './vocabulary';

export const raritySchema = z.enum(RARITIES);

/** A user's counters as stored: each metric and time mark, where there is one yet. */
export const countersSchema = z.partialRecord(z.enum([...METRICS, ...TIME_MARKS]), z.number());
export type Counters = z.infer<typeof countersSchema>;

/** What an achievement is, in the catalogue and in a user's unlocks alike. */
const achievementInfoSchema = z.object({
  type: z.string(),
  title: z.string(),
  description: z.string(),
  /** A lucide icon name. */
  icon: z.string(),
  rarity: raritySchema,
  points: z.number().int(),
});
export type AchievementInfo = z.infer<typeof achievementInfoSchema>;

export const achievementProgressSchema = z.object({
  achievementType: z.string(),
  currentValue: z.number().int(),
  targetValue: z.number().int(),
});
export type AchievementProgress = z.infer<typeof achievementProgressSchema>;

/** A user's unlock of an achievement, as stored and as the API answers it. */
export const achievementSchema = achievementInfoSchema.extend({
  id: z.string(),
  userId: z.string(),
  /** The target and metric it was unlocked at. */
  metadata: z.record(z.string(), z.unknown()),
  unlockedAt: z.string(),
  createdAt: z.string(),
  /** The overlay showed it (it is shown once per unlock); unlocks stored before the overlay count as shown. */
  seen: z.boolean().default(true),
});
export type Achievement = z.infer<typeof achievementSchema>;

export const achievementStatsSchema = z.object({
  totalAchievements: z.number().int(),
  totalPoints: z.number().int(),
  rarityBreakdown: z.partialRecord(raritySchema, z.number().int()),
});
export type AchievementStats = z.infer<typeof achievementStatsSchema>;
