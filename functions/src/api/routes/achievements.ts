// The signed-in user's achievements, their progress and their stats; marking an unlock as shown. `?user=`
// may name only oneself (spec section 7 [13]): someone else's are a 404.

import { ACHIEVEMENTS } from '@csp/shared/achievements/catalogue';
import { evaluateAchievements } from '@csp/shared/achievements/evaluate';
import { Hono } from 'hono';
import { recordAchievementEvent } from '../../achievements/record';
import { notFound } from '../../errors';
import { getCounters, listUserAchievements, markSeen } from '../../store/achievements';
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
  .get('/', async (c) => {
    const { db } = c.var.deps;
    const userId = targetUserId(c);
    // What time alone unlocks (Quiet Week) is stored when the user looks, so the overlay shows it once.
    await recordAchievementEvent(db, c.var.log, userId, {});
    return c.json(await listUserAchievements(db, userId));
  })
  .get('/progress', async (c) => {
    const { db } = c.var.deps;
    const userId = targetUserId(c);
    const unlocked = new Set((await listUserAchievements(db, userId)).map((a) => a.type));
    return c.json(evaluateAchievements(await getCounters(db, userId), unlocked).progress);
  })
  .post('/:type/seen', async (c) => {
    const type = c.req.param('type');
    if (!ACHIEVEMENTS.some((a) => a.type === type)) throw notFound('Achievement');
    if (!(await markSeen(c.var.deps.db, currentUser(c).id, type))) throw notFound('Achievement');
    return c.json({ success: true });
  })
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
