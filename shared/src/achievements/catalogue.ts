// Every achievement there is (spec sections 2, 3, 9): what it is for, its rarity and points, and the counter
// and target that unlock it. One module; the API, the unlock rule and the screens read it.
import * as z from 'zod';

export const RARITIES = ['common', 'rare', 'epic', 'legendary'] as const;
export const raritySchema = z.enum(RARITIES);
export type Rarity = z.infer<typeof raritySchema>;

/** What is counted per user, where it happens (see functions/src/achievements/record.ts). */
export const METRICS = [
  'domains',
  'analyses',
  'cleanPolicies',
  'verifiedClean',
  'aPlus',
  'reportsReceived',
  'twoFactor',
  'teamsCreated',
  'membersJoined',
  /** Derived, not stored: whole days since reports began or since the last new suspicious group. */
  'quietDays',
] as const;
export type Metric = (typeof METRICS)[number];
/** Moments kept beside the counters (epoch ms), from which time-based metrics are derived. */
export const TIME_MARKS = ['firstReportAt', 'lastSuspiciousAt'] as const;
export type TimeMark = (typeof TIME_MARKS)[number];
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

/** An achievement of the catalogue: what it is, and the counter and target that unlock it. */
export type AchievementDefinition = z.infer<typeof achievementInfoSchema> & {
  metric: Metric;
  target: number;
};

export const ACHIEVEMENTS: readonly AchievementDefinition[] = [
  {
    type: 'first-domain',
    title: 'First Domain',
    description: 'Add your first website.',
    icon: 'globe',
    rarity: 'common',
    points: 10,
    metric: 'domains',
    target: 1,
  },
  {
    type: 'five-domains',
    title: 'Portfolio',
    description: 'Protect five websites.',
    icon: 'layers',
    rarity: 'rare',
    points: 25,
    metric: 'domains',
    target: 5,
  },
  {
    type: 'first-analysis',
    title: 'First Scan',
    description: 'Complete your first CSP analysis.',
    icon: 'radar',
    rarity: 'common',
    points: 10,
    metric: 'analyses',
    target: 1,
  },
  {
    type: 'ten-analyses',
    title: 'Regular',
    description: 'Complete 10 analyses.',
    icon: 'repeat',
    rarity: 'rare',
    points: 25,
    metric: 'analyses',
    target: 10,
  },
  {
    type: 'hundred-analyses',
    title: 'Centurion',
    description: 'Complete 100 analyses.',
    icon: 'trophy',
    rarity: 'legendary',
    points: 100,
    metric: 'analyses',
    target: 100,
  },
  {
    type: 'no-unsafe-inline',
    title: 'No Inline Risks',
    description: "Get a policy without 'unsafe-inline' that browsers apply.",
    icon: 'shield-check',
    rarity: 'rare',
    points: 25,
    metric: 'cleanPolicies',
    target: 1,
  },
  {
    type: 'verified-clean',
    title: 'Verified',
    description: 'Get a policy verified on your pages with 0 violations.',
    icon: 'badge-check',
    rarity: 'epic',
    points: 50,
    metric: 'verifiedClean',
    target: 1,
  },
  {
    type: 'a-plus',
    title: 'Top Grade',
    description: 'Get a policy graded A+.',
    icon: 'star',
    rarity: 'legendary',
    points: 100,
    metric: 'aPlus',
    target: 1,
  },
  {
    type: 'first-report',
    title: 'Listening',
    description: 'Receive your first violation report.',
    icon: 'radio',
    rarity: 'common',
    points: 10,
    metric: 'reportsReceived',
    target: 1,
  },
  {
    type: 'thousand-reports',
    title: 'Watchtower',
    description: 'Receive 1,000 violation reports.',
    icon: 'eye',
    rarity: 'epic',
    points: 50,
    metric: 'reportsReceived',
    target: 1000,
  },
  {
    type: 'two-factor',
    title: 'Locked Down',
    description: 'Turn on two-factor authentication.',
    icon: 'key-round',
    rarity: 'rare',
    points: 25,
    metric: 'twoFactor',
    target: 1,
  },
  {
    type: 'quiet-week',
    title: 'Quiet Week',
    description: 'Receive violation reports for a week without a new suspicious inline-code group.',
    icon: 'shield-check',
    rarity: 'epic',
    points: 50,
    metric: 'quietDays',
    target: 7,
  },
  {
    type: 'team-created',
    title: 'Team Player',
    description: 'Create a team.',
    icon: 'users',
    rarity: 'common',
    points: 10,
    metric: 'teamsCreated',
    target: 1,
  },
  {
    type: 'first-member',
    title: 'Growing Team',
    description: 'Have a first member join your team.',
    icon: 'user-plus',
    rarity: 'rare',
    points: 25,
    metric: 'membersJoined',
    target: 1,
  },
];

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
