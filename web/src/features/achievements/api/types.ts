// Achievement shapes as the API returns them (spec section 3): the shared ones, defined once there.
export { RARITIES, type Rarity } from '@csp/shared/achievements/catalogue';
export type { Achievement, AchievementStats } from '@csp/shared/achievements/schemas';
