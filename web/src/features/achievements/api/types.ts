// Achievement shapes as the API returns them (spec section 3): the shared catalogue's, defined once there.
export {
  type Achievement,
  type AchievementStats,
  RARITIES,
  type Rarity,
} from '@csp/shared/achievements/catalogue';
