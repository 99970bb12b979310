// Starting an analysis of a domain: the one path a person's start (POST /api/csp-analyses), an API token's
// and a schedule's due time all take, so every limit applies to each alike: the domain must be active, the
// crawl request valid, the owner's waiting analyses and daily pages within their limits (429), the domain
// free of another analysis (409); the crawl is queued in the owner's group of the fair queue.
import { type AnalysisTrigger, type CrawlRequest, crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { INACTIVE_DOMAIN } from '@csp/shared/schemas/domain';
import { parseWith } from '../api/validate';
import type { Config } from '../config';
import { AppError } from '../errors';
import { errorFields, type Logger } from '../logger';
import type { AnalysisQueue } from '../queue/queue';
import type { AnalysisRecord } from '../store/analyses';
import { failAnalysis } from '../store/analysis-runs';
import { startAnalysis } from '../store/analysis-start';
import type { Db } from '../store/db';
import { recordScanStarted } from '../store/domains';

export interface StartDeps {
  db: Db;
  queue: AnalysisQueue;
  config: Pick<Config, 'CRAWL_DAILY_PAGES'>;
  logger: Logger;
}

export interface DomainToStart {
  id: string;
  userId: string;
  url: string;
  isActive: boolean;
}

/** The crawl request a domain's analysis runs: the settings given, the domain's own URL (400 if invalid). */
export function domainCrawlRequest(domain: { url: string }, settings: Record<string, unknown>): CrawlRequest {
  // The analysis always crawls the domain's own URL (spec section 5, advanced crawl form).
  return parseWith(crawlRequestSchema, { ...settings, url: domain.url });
}

/** Starts and queues the analysis; throws the refusal (AppError 409/429) and changes nothing then. */
export async function startDomainAnalysis(
  deps: StartDeps,
  input: {
    domain: DomainToStart;
    crawlRequest: CrawlRequest;
    reportUri: string | null;
    trigger: AnalysisTrigger;
  },
): Promise<AnalysisRecord> {
  const { db } = deps;
  const { domain } = input;
  if (!domain.isActive) throw new AppError(409, INACTIVE_DOMAIN);
  // One analysis of a domain at a time: 409 while one waits or runs.
  const analysis = await startAnalysis(db, {
    userId: domain.userId,
    domainId: domain.id,
    url: domain.url,
    crawlRequest: input.crawlRequest,
    reportUri: input.reportUri,
    dailyPages: deps.config.CRAWL_DAILY_PAGES,
    trigger: input.trigger,
  });
  await recordScanStarted(db, domain.id);
  return enqueueAnalysis(deps, analysis);
}

/** Queues the crawl. If the queue refuses, the analysis is failed with the reason rather than left pending. */
export async function enqueueAnalysis(deps: StartDeps, analysis: AnalysisRecord): Promise<AnalysisRecord> {
  try {
    // In its user's group: the crawl queue serves users fairly (SQS fair queues; round-robin locally).
    await deps.queue.send({ analysisId: analysis.id }, { group: analysis.userId });
    return analysis;
  } catch (err) {
    deps.logger.error('could not queue analysis', { analysisId: analysis.id, ...errorFields(err) });
    const message = 'The crawl could not be queued. Please try again.';
    await failAnalysis(deps.db, analysis.id, null, [message]);
    return { ...analysis, status: 'failed', errors: [message] };
  }
}
