// Every achievement there is (spec sections 2, 3, 9): what it is for, its rarity and points, and the counter
// and target that unlock it. One module; the API, the unlock rule and the screens read it. The shapes as
// stored and answered are zod schemas in schemas.ts, apart from this module: the dashboard, which shows the
// catalogue, loads no zod.
import type { AchievementInfo } from './schemas';
import type { Metric } from './vocabulary';

export type { Counters } from './schemas';
export {
  METRICS,
  type Metric,
  RARITIES,
  type Rarity,
  TIME_MARKS,
  type TimeMark,
} from './vocabulary';

/** An achievement of the catalogue: what it is, and the counter and target that unlock it. */
export type AchievementDefinition = AchievementInfo & {
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
