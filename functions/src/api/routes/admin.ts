// The admin panel's API (spec sections 2, 6, 7): every user, domain and analysis, newest first a page at a
// time with totals; changing a user's role; deleting users, domains and analyses with their cascades. Only
// role admin (403 for others, 401 without a session). An admin cannot demote or delete themselves, so the
// product cannot be left without one by accident.
import {
  type AdminAnalysisList,
  type AdminDomainList,
  type AdminUserList,
  adminListQuerySchema,
  roleChangeSchema,
} from '@csp/shared/schemas/admin';
import { Hono } from 'hono';
import type * as z from 'zod';
import { AppError, notFound } from '../../errors';
import { countType, type EntityType, InvalidAdminCursorError, listTypePage } from '../../store/admin-lists';
import { deleteAnalysisCascade, getAnalysis, toAnalysis } from '../../store/analyses';
import { deleteDomainCascade, getDomain } from '../../store/domains';
import { deleteUserSessions } from '../../store/sessions';
import { deleteUserCascade } from '../../store/user-cascade';
import { getUser, toPublicUser, updateUserFields } from '../../store/users';
import type { ApiEnv } from '../deps';
import { currentUser, requireAdmin } from '../middleware/session';
import { jsonBody, query } from '../validate';

async function page<T extends EntityType>(
  type: T,
  q: z.output<typeof adminListQuerySchema>,
  db: ApiEnv['Variables']['deps']['db'],
) {
  try {
    const [{ items, nextCursor }, total] = await Promise.all([
      listTypePage(db, type, { limit: q.limit, cursor: q.cursor }),
      countType(db, type),
    ]);
    return { items, total, nextCursor };
  } catch (err) {
    if (err instanceof InvalidAdminCursorError) throw new AppError(400, 'The cursor is not valid');
    throw err;
  }
}

export const adminRoutes = new Hono<ApiEnv>()
  .use(requireAdmin)
  .get('/users', query(adminListQuerySchema), async (c) => {
    const p = await page('user', c.req.valid('query'), c.var.deps.db);
    const body: AdminUserList = { ...p, items: p.items.map(toPublicUser) };
    return c.json(body);
  })

  .get('/domains', query(adminListQuerySchema), async (c) => {
    const p = await page('domain', c.req.valid('query'), c.var.deps.db);
    const body: AdminDomainList = { ...p, items: p.items };
    return c.json(body);
  })

  .get('/analyses', query(adminListQuerySchema), async (c) => {
    const p = await page('analysis', c.req.valid('query'), c.var.deps.db);
    const body: AdminAnalysisList = {
      ...p,
      items: p.items.map(toAnalysis),
    };
    return c.json(body);
  })

  .put('/users/:id', jsonBody(roleChangeSchema), async (c) => {
    const { db } = c.var.deps;
    const { role } = c.req.valid('json');
    const user = await getUser(db, c.req.param('id'));
    if (!user) throw notFound('User');
    if (user.id === currentUser(c).id) throw new AppError(400, 'You cannot change your own role');
    const updated = await updateUserFields(db, user.id, { role });
    // Privileges change now, not at the next sign-in: the user's sessions end.
    if (updated.role !== user.role) await deleteUserSessions(db, user.id);
    c.var.log.info('user role changed', { userId: user.id, role, by: currentUser(c).id });
    return c.json(toPublicUser(updated));
  })

  .delete('/users/:id', async (c) => {
    const { db } = c.var.deps;
    const user = await getUser(db, c.req.param('id'));
    if (!user) throw notFound('User');
    if (user.id === currentUser(c).id) throw new AppError(400, 'You cannot delete your own account here');
    await deleteUserCascade({ ...c.var.deps, logger: c.var.log }, user);
    c.var.log.info('user deleted', { userId: user.id, by: currentUser(c).id });
    return c.json({ success: true });
  })

  .delete('/domains/:id', async (c) => {
    const { db } = c.var.deps;
    const domain = await getDomain(db, c.req.param('id'));
    if (!domain) throw notFound('Domain');
    await deleteDomainCascade({ ...c.var.deps, logger: c.var.log }, domain);
    return c.json({ success: true });
  })

  .delete('/analyses/:id', async (c) => {
    const { db } = c.var.deps;
    const analysis = await getAnalysis(db, c.req.param('id'));
    if (!analysis) throw notFound('Analysis');
    await deleteAnalysisCascade(db, analysis);
    return c.json({ success: true });
  });
