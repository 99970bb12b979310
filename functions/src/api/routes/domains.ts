// Domains of the signed-in user (spec section 7). Someone else's domain is a 404.
import { domainCreateSchema, domainUpdateSchema } from '@csp/shared/schemas/domain';
import { Hono } from 'hono';
import { recordAchievementEvent } from '../../achievements/record';
import { notFound } from '../../errors';
import { failStale, listDomainAnalyses, toAnalysis } from '../../store/analyses';
import {
  createDomain,
  deleteDomainCascade,
  getOwnedDomain,
  listUserDomains,
  updateDomain,
} from '../../store/domains';
import { readBody } from '../body';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';

export const domainRoutes = new Hono<ApiEnv>()
  .use(requireUser)
  .get('/', async (c) => c.json(await listUserDomains(c.var.deps.db, currentUser(c).id)))

  .post('/', async (c) => {
    const input = await readBody(c, domainCreateSchema);
    const domain = await createDomain(c.var.deps.db, currentUser(c).id, input);
    await recordAchievementEvent(c.var.deps.db, c.var.log, domain.userId, { add: { domains: 1 } });
    return c.json(domain, 201);
  })

  .get('/:id', async (c) => {
    const domain = await getOwnedDomain(c.var.deps.db, currentUser(c).id, c.req.param('id'));
    if (!domain) throw notFound('Domain');
    return c.json(domain);
  })

  .patch('/:id', async (c) => {
    const { db } = c.var.deps;
    const domain = await getOwnedDomain(db, currentUser(c).id, c.req.param('id'));
    if (!domain) throw notFound('Domain');
    const input = await readBody(c, domainUpdateSchema);
    const updated = await updateDomain(db, domain.id, input);
    if (!updated) throw notFound('Domain');
    return c.json(updated);
  })

  .delete('/:id', async (c) => {
    const { db } = c.var.deps;
    const domain = await getOwnedDomain(db, currentUser(c).id, c.req.param('id'));
    if (!domain) throw notFound('Domain');
    await deleteDomainCascade(db, domain);
    return c.json({ success: true });
  })

  .get('/:id/analyses', async (c) => {
    const { db } = c.var.deps;
    const domain = await getOwnedDomain(db, currentUser(c).id, c.req.param('id'));
    if (!domain) throw notFound('Domain');
    return c.json((await failStale(db, await listDomainAnalyses(db, domain.id))).map(toAnalysis));
  });
