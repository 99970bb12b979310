// What changed between a domain's runs (issue: changes between runs): the timeline of compared analyses of a
// domain, newest first, and one analysis' changes. The owner and the owner's team read them; someone else's
// domain or analysis is a 404.
import { watchChangesQuerySchema } from '@csp/shared/schemas/watch-changes';
import { Hono } from 'hono';
import { notFound } from '../../errors';
import { getWatchRun, listWatchRuns } from '../../store/watch-snapshots';
import { domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { requireUser } from '../middleware/session';
import { query } from '../validate';
import { seenAnalysis } from './analyses';

/** /api/domains/:id/changes */
export const domainChangesRoutes = new Hono<ApiEnv>().get(
  '/:id/changes',
  requireUser,
  query(watchChangesQuerySchema),
  async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const q = c.req.valid('query');
    const page = await listWatchRuns(c.var.deps.db, domain.id, { limit: q.limit, before: q.cursor });
    return c.json({ runs: page.runs, nextCursor: page.next });
  },
);

/** /api/csp/analyze/:id/changes: null until the analysis completed (or for a first run, nothing to compare). */
export const analysisChangesRoutes = new Hono<ApiEnv>().get('/:id/changes', requireUser, async (c) => {
  const analysis = await seenAnalysis(c, c.req.param('id'));
  if (!analysis.domainId) throw notFound('Changes');
  const run = await getWatchRun(c.var.deps.db, analysis.domainId, analysis.id);
  return c.json({ run });
});
