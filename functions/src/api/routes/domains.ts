// Domains of the signed-in user (spec section 7), and read-only the domains of their team's owner.
// Someone else's domain is a 404; a member's change of a team domain is a 403 (see api/access.ts).
import { domainCreateSchema, domainUpdateSchema } from '@csp/shared/schemas/domain';
import { byCodeUnits } from '@csp/shared/text/order';
import { Hono } from 'hono';
import { recordAchievementEvent } from '../../achievements/record';
import { notFound } from '../../errors';
import { listDomainAnalyses, toAnalysesWithPositions } from '../../store/analyses';
import { failStale } from '../../store/analysis-runs';
import { putContact } from '../../store/contacts';
import { getDomainWatch } from '../../store/domain-watch';
import { createDomain, deleteDomainCascade, listUserDomains, updateDomain } from '../../store/domains';
import { domainFor, type SeenDomain, teamOwnerOf } from '../access';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';

/** Domains whose watch figures the list reads at once. */
const WATCH_READS_AT_ONCE = 16;

export const domainRoutes = new Hono<ApiEnv>()
  .use(requireUser)
  .get('/', async (c) => {
    const { db } = c.var.deps;
    const user = currentUser(c);
    const owner = await teamOwnerOf(c);
    const own: SeenDomain[] = (await listUserDomains(db, user.id)).map((d) => ({ ...d, access: 'owner' }));
    const team: SeenDomain[] =
      owner && owner !== user.id
        ? (await listUserDomains(db, owner)).map((d) => ({ ...d, access: 'team' }))
        : [];
    // Newest first across both (ids sort by creation time).
    const domains = [...own, ...team].sort((a, b) => byCodeUnits(b.id, a.id));
    // The dashboard's watch figures: two reads per domain (their cost in store/domain-watch.ts), a few
    // domains at a time so a list of hundreds does not fire a thousand requests at once.
    const listed = [];
    for (let i = 0; i < domains.length; i += WATCH_READS_AT_ONCE) {
      const batch = domains.slice(i, i + WATCH_READS_AT_ONCE);
      listed.push(
        ...(await Promise.all(batch.map(async (d) => ({ ...d, watch: await getDomainWatch(db, d.id) })))),
      );
    }
    return c.json(listed);
  })

  .post('/', jsonBody(domainCreateSchema), async (c) => {
    const input = c.req.valid('json');
    const user = currentUser(c);
    const domain = await createDomain(c.var.deps.db, user.id, input);
    // Where the domain's alerts are mailed (alerts are on by e-mail by default).
    await putContact(c.var.deps.db, user.id, user.email);
    await recordAchievementEvent(c.var.deps.db, c.var.log, domain.userId, { add: { domains: 1 } });
    return c.json({ ...domain, access: 'owner' as const }, 201);
  })

  .get('/:id', async (c) => c.json(await domainFor(c, c.req.param('id'), 'read')))

  .patch('/:id', jsonBody(domainUpdateSchema), async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const input = c.req.valid('json');
    const updated = await updateDomain(db, domain.id, input);
    if (!updated) throw notFound('Domain');
    return c.json({ ...updated, access: domain.access });
  })

  .delete('/:id', async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change');
    await deleteDomainCascade({ ...c.var.deps, logger: c.var.log }, domain);
    return c.json({ success: true });
  })

  .get('/:id/analyses', async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read');
    return c.json(
      await toAnalysesWithPositions(db, await failStale(db, await listDomainAnalyses(db, domain.id))),
    );
  });
