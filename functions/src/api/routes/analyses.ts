// Analyses: start one (for a domain, or standalone), list them, poll one (spec section 7).
import { crawlRequestSchema, startAnalysisSchema } from '@csp/shared/schemas/analysis';
import { INACTIVE_DOMAIN } from '@csp/shared/schemas/domain';
import { type Context, Hono } from 'hono';
import { AppError, notFound } from '../../errors';
import { domainReportEndpoint } from '../../http/public-origin';
import { errorFields } from '../../logger';
import {
  type AnalysisRecord,
  createAnalysis,
  getAnalysis,
  listUserAnalyses,
  toAnalysesWithPositions,
} from '../../store/analyses';
import { failAnalysis, failStale } from '../../store/analysis-runs';
import { startAnalysis } from '../../store/analysis-start';
import { getCrawledPages } from '../../store/crawled-pages';
import { recordScanStarted } from '../../store/domains';
import { accessTo, domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody, parseWith } from '../validate';

/** Queues the crawl. If the queue refuses, the analysis is failed with the reason rather than left pending. */
async function enqueue(c: Context<ApiEnv>, analysis: AnalysisRecord): Promise<AnalysisRecord> {
  const { deps } = c.var;
  try {
    // In its user's group: the crawl queue serves users fairly (SQS fair queues; round-robin locally).
    await deps.queue.send({ analysisId: analysis.id }, { group: analysis.userId });
    return analysis;
  } catch (err) {
    c.var.log.error('could not queue analysis', { analysisId: analysis.id, ...errorFields(err) });
    const message = 'The crawl could not be queued. Please try again.';
    await failAnalysis(deps.db, analysis.id, null, [message]);
    return { ...analysis, status: 'failed', errors: [message] };
  }
}

/** /api/csp-analyses: the user's analyses, and starting one for a domain. */
// The session check is per route, not a catch-all .use(): an unknown path below stays a 404.
export const analysisRoutes = new Hono<ApiEnv>()
  .get('/', requireUser, async (c) => {
    const { db } = c.var.deps;
    return c.json(
      await toAnalysesWithPositions(db, await failStale(db, await listUserAnalyses(db, currentUser(c).id))),
    );
  })

  .post('/', requireUser, jsonBody(startAnalysisSchema), async (c) => {
    const { deps } = c.var;
    const { db } = deps;
    const user = currentUser(c);
    const { domainId, crawlRequest } = c.req.valid('json');
    const domain = await domainFor(c, domainId, 'change');
    if (!domain.isActive) throw new AppError(409, INACTIVE_DOMAIN);
    // The analysis always crawls the domain's own URL (spec section 5, advanced crawl form).
    const request = parseWith(crawlRequestSchema, { ...crawlRequest, url: domain.url });
    // One analysis of a domain at a time: 409 while one waits or runs.
    const analysis = await startAnalysis(db, {
      userId: user.id,
      domainId: domain.id,
      url: domain.url,
      crawlRequest: request,
      // Every policy generated for a domain reports to the product (REPORT_ENDPOINT_ORIGIN: the ingest
      // function's own host, when the deployment has one).
      reportUri: domainReportEndpoint(c.req.url, deps.config, domain.uuid),
      dailyPages: deps.config.CRAWL_DAILY_PAGES,
    });
    await recordScanStarted(db, domain.id);
    const [shown] = await toAnalysesWithPositions(db, [await enqueue(c, analysis)]);
    return c.json(shown, 201);
  });

/** /api/csp/analyze: a standalone analysis of any site, and polling one. */
export const analyzeRoutes = new Hono<ApiEnv>()
  .post('/', requireUser, jsonBody(crawlRequestSchema), async (c) => {
    const user = currentUser(c);
    const request = c.req.valid('json');
    const url = request.url ?? request.urlList[0] ?? 'sitemap';
    const analysis = await createAnalysis(c.var.deps.db, {
      userId: user.id,
      domainId: null,
      url,
      crawlRequest: request,
      dailyPages: c.var.deps.config.CRAWL_DAILY_PAGES,
    });
    const queued = await enqueue(c, analysis);
    const [shown] = await toAnalysesWithPositions(c.var.deps.db, [queued]);
    return c.json({ success: queued.status !== 'failed', analysisId: analysis.id, analysis: shown }, 201);
  })

  .get('/:id', requireUser, async (c) => {
    const found = await seenAnalysis(c, c.req.param('id'));
    const [analysis] = await toAnalysesWithPositions(c.var.deps.db, await failStale(c.var.deps.db, [found]));
    return c.json({ success: true, analysis });
  })
  // Every URL the crawl tried, with its status and what it loaded (null until the analysis completes).
  .get('/:id/pages', requireUser, async (c) => {
    const found = await seenAnalysis(c, c.req.param('id'));
    const crawledPages = await getCrawledPages(c.var.deps.db, found.id);
    return c.json({ success: true, crawledPages });
  });

/** The analysis if the signed-in user may read it, else a 404 (ids of others' analyses do not leak). */
export async function seenAnalysis(c: Context<ApiEnv>, id: string) {
  const found = await getAnalysis(c.var.deps.db, id);
  // A team member reads the analyses of the owner's domains; standalone analyses stay private.
  const seen =
    found &&
    (found.userId === currentUser(c).id ||
      (found.domainId !== null && (await accessTo(c, found.userId)) === 'team'));
  if (!found || !seen) throw notFound('Analysis');
  return found;
}
