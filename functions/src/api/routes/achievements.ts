// The signed-in user's achievements and their stats. `?user=` may name only oneself (spec section 7 [13]).
import { Hono } from 'hono';
import { notFound } from '../../errors';
import { listUserAchievements } from '../../store/achievements';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';

function targetUserId(
  c: Parameters<typeof currentUser>[0] & { req: { query(k: string): string | undefined } },
) {
  const me = currentUser(c);
  const asked = c.req.query('user');
  if (asked !== undefined && asked !== me.id) throw notFound('User');
  return me.id;
}

export const achievementRoutes = new Hono<ApiEnv>()
  .use(requireUser)
  .get('/', async (c) => c.json(await listUserAchievements(c.var.deps.db, targetUserId(c))))
  .get('/stats', async (c) => {
    const list = await listUserAchievements(c.var.deps.db, targetUserId(c));
    const rarityBreakdown = { common: 0, rare: 0, epic: 0, legendary: 0 };
    for (const a of list) rarityBreakdown[a.rarity] += 1;
    return c.json({
      totalAchievements: list.length,
      totalPoints: list.reduce((sum, a) => sum + a.points, 0),
      rarityBreakdown,
    });
  });
