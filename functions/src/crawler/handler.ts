// The crawl queue's handler: the same code in the crawler Lambda (SQS) and in `npm start` (LocalQueue).
//
// At-least-once delivery: every invocation claims the analysis with a fresh run id and a lease, so a
// duplicate delivery finds it held and does nothing. Long crawls stop before the invocation's time runs
// out, store their state in the blob store, release the lease and queue a continuation (DelaySeconds for
// long crawl delays instead of a sleeping Lambda). An error releases the lease and fails the record, so
// SQS delivers it again and the next run resumes from the last checkpoint; after the last delivery the
// dead-letter handler fails the analysis with the reason.
import { randomUUID } from 'node:crypto';
import { generatePolicy } from '@csp/shared/csp/generate';
import { serializePolicy } from '@csp/shared/csp/serialize';
import { computeResourceStats } from '@csp/shared/csp/stats';
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { AnalysisQueue } from '../api/deps';
import type { BlobStore } from '../blobs';
import { errorFields, type Logger } from '../logger';
import { crawlMessageSchema } from '../queue/message';
import {
  type AnalysisRecord,
  claimAnalysis,
  completeAnalysis,
  failAnalysis,
  releaseAnalysis,
  updateProgress,
} from '../store/analyses';
import type { Db } from '../store/db';
import { checkpointKey, type RunCrawlOptions, runCrawl } from './crawl';
import { type CrawlState, parseCrawlState } from './state';
import { verifyPolicy } from './verify';

export interface CrawlHandlerDeps {
  db: Db;
  queue: AnalysisQueue;
  blobs: BlobStore;
  logger: Logger;
  allowPrivateTargets: boolean;
  /** Longest a run may take when the platform sets no deadline (locally): the Lambda's 15 min less margin. */
  runBudgetMs?: number;
  /** Test hooks for the crawl itself (settle times, a narrowed address check). */
  crawlOptions?: Pick<RunCrawlOptions, 'settle' | 'checkAddress' | 'concurrency' | 'pageReserveMs'>;
}

export interface InvocationContext {
  getRemainingTimeInMillis(): number;
}

/** Time kept after the crawl for generating, verifying and saving the policy. */
const FINISH_RESERVE_MS = 90_000;
const DEFAULT_RUN_BUDGET_MS = 14 * 60_000;
/** A lease outlives the run by this much, so a crashed run is taken over soon after. */
const LEASE_MARGIN_MS = 60_000;

export function createCrawlHandler(deps: CrawlHandlerDeps) {
  async function processRecord(record: SQSRecord, runDeadline: number): Promise<void> {
    const parsed = crawlMessageSchema.safeParse(safeJson(record.body));
    if (!parsed.success) {
      // Delivering it again cannot make it readable.
      deps.logger.error('unreadable crawl message dropped', { messageId: record.messageId });
      return;
    }
    const { analysisId } = parsed.data;
    const runId = randomUUID();
    const log = deps.logger.child({ analysisId, runId });
    const leaseFor = () => runDeadline - Date.now() + LEASE_MARGIN_MS;
    const analysis = await claimAnalysis(deps.db, analysisId, runId, leaseFor());
    if (!analysis) {
      log.info('analysis is finished or held by another run; message dropped');
      return;
    }
    try {
      await crawlAndFinish(analysis, runId, runDeadline, leaseFor, log);
    } catch (err) {
      const message = errorFields(err).error;
      log.error('crawl run failed; the message will be delivered again', errorFields(err));
      await releaseAnalysis(deps.db, analysisId, runId, message).catch(() => {});
      throw err;
    }
  }

  async function crawlAndFinish(
    analysis: AnalysisRecord,
    runId: string,
    runDeadline: number,
    leaseFor: () => number,
    log: Logger,
  ) {
    const key = checkpointKey(analysis.id);
    const stored = analysis.runs > 1 ? await deps.blobs.get(key) : null;
    const state: CrawlState | null = stored ? parseCrawlState(JSON.parse(stored.toString('utf8'))) : null;
    const request = analysis.crawlRequest;
    let lost = false;
    const result = await runCrawl({ ...request, analysisId: analysis.id }, state, {
      ...deps.crawlOptions,
      deadline: runDeadline - FINISH_RESERVE_MS,
      allowPrivateTargets: deps.allowPrivateTargets,
      blobStore: deps.blobs,
      onProgress: async (p) => {
        const held = await updateProgress(deps.db, analysis.id, runId, {
          progress: p.progress,
          currentPage: p.currentPage,
          totalPages: p.totalPages,
          leaseUntil: Date.now() + leaseFor(),
        });
        if (!held) lost = true;
      },
    });
    if (lost) {
      log.warn('another run took the analysis over; this run stops without writing');
      return;
    }

    if (!result.done) {
      await deps.blobs.put(key, JSON.stringify(result.state), 'application/json');
      if (!(await releaseAnalysis(deps.db, analysis.id, runId))) return;
      const delaySeconds = Math.ceil((result.resumeAfterMs ?? 0) / 1000);
      await deps.queue.send({ analysisId: analysis.id }, delaySeconds);
      log.info('crawl continues in a new run', { pagesDone: result.state.pagesDone, delaySeconds });
      return;
    }

    const artifact = { origin: result.state.origin, pages: result.state.pages, errors: result.state.errors };
    const crawled = artifact.pages.filter((p) => p.status < 400);
    if (crawled.length === 0) {
      const errors = artifact.errors.length > 0 ? artifact.errors : ['No page could be crawled.'];
      await failAnalysis(deps.db, analysis.id, runId, errors);
      await deps.blobs.delete(key);
      return;
    }
    await updateProgress(deps.db, analysis.id, runId, {
      progress: 99,
      currentPage: null,
      totalPages: artifact.pages.length,
      leaseUntil: Date.now() + leaseFor(),
    });
    const allowlist = generatePolicy(artifact, { mode: 'allowlist' });
    const strict = generatePolicy(artifact, { mode: 'strict' });
    // A policy we hand out is one we have tried: a sample of the pages again, with it as report-only.
    const verification = await verifyPolicy({
      pages: crawled.map((p) => p.finalUrl),
      policy: serializePolicy(allowlist.rules),
      siteOrigin: artifact.origin,
      allowPrivateTargets: deps.allowPrivateTargets,
      userAgent: request.userAgent || undefined,
      deadline: runDeadline - 15_000,
      ...(deps.crawlOptions?.settle ? { settle: deps.crawlOptions.settle } : {}),
      ...(deps.crawlOptions?.checkAddress ? { checkAddress: deps.crawlOptions.checkAddress } : {}),
    });
    const completed = await completeAnalysis(deps.db, analysis.id, runId, {
      cspRules: allowlist.rules,
      strictCspRules: strict.rules,
      resourceStats: computeResourceStats(artifact, allowlist.rules),
      errors: artifact.errors,
      totalPages: artifact.pages.length,
      verification,
    });
    if (completed) await deps.blobs.delete(key);
    log.info('analysis completed', { pages: artifact.pages.length, violations: verification.violations });
  }

  return async function crawlHandler(
    event: SQSEvent,
    context?: InvocationContext,
  ): Promise<SQSBatchResponse> {
    const started = Date.now();
    const runDeadline = context
      ? started + context.getRemainingTimeInMillis()
      : started + (deps.runBudgetMs ?? DEFAULT_RUN_BUDGET_MS);
    const batchItemFailures: SQSBatchItemFailure[] = [];
    // One record at a time: each crawl runs its own Chromium, and a failed record must not fail the others.
    for (const record of event.Records) {
      try {
        await processRecord(record, runDeadline);
      } catch {
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
