// The words of achievements: rarities, what is counted per user and the moments kept beside the counters.
// A leaf module: the catalogue (catalogue.ts) and the zod schemas (schemas.ts) both read them.

export const RARITIES = ['common', 'rare', 'epic', 'legendary'] as const;
export type Rarity = (typeof RARITIES)[number];

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
