// Analyses: start one (for a domain, or standalone), list them, poll one (spec section 7).
import { crawlRequestSchema, startAnalysisSchema } from '@csp/shared/schemas/analysis';
import { INACTIVE_DOMAIN } from '@csp/shared/schemas/domain';
import { type Context, Hono } from 'hono';
import {
  domainCrawlRequest,
  enqueueAnalysis,
  startDomainAnalysis,
} from '../../analysis-start/start-domain-analysis';
import { AppError, notFound } from '../../errors';
import { domainReportEndpoint } from '../../http/public-origin';
import { createAnalysis, getAnalysis, listUserAnalyses, toAnalysesWithPositions } from '../../store/analyses';
import { failStale } from '../../store/analysis-runs';
import { getCrawledPages } from '../../store/crawled-pages';
import { accessTo, domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';

/** Who a request starts an analysis as: an API token's pipeline, or a person. */
const triggerOf = (c: Context<ApiEnv>) => (c.var.apiToken ? 'api' : 'user');

const startDeps = (c: Context<ApiEnv>) => ({ ...c.var.deps, logger: c.var.log });

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
    const { domainId, crawlRequest } = c.req.valid('json');
    const domain = await domainFor(c, domainId, 'change');
    if (!domain.isActive) throw new AppError(409, INACTIVE_DOMAIN);
    const analysis = await startDomainAnalysis(startDeps(c), {
      domain,
      crawlRequest: domainCrawlRequest(domain, crawlRequest),
      // Every policy generated for a domain reports to the product (REPORT_ENDPOINT_ORIGIN: the ingest
      // function's own host, when the deployment has one).
      reportUri: domainReportEndpoint(c.req.url, deps.config, domain.uuid),
      trigger: triggerOf(c),
    });
    const [shown] = await toAnalysesWithPositions(db, [analysis]);
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
      trigger: triggerOf(c),
    });
    const queued = await enqueueAnalysis(startDeps(c), analysis);
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
