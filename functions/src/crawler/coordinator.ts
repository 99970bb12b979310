// The crawl coordinator: the crawl queue's consumer (createCoordinatorHandler, one record at a time) and its
// part of one run of an analysis (coordinateRun): claim the analysis with a
// fresh run token (its digest becomes the lease's run id), take one of its user's run slots (or wait,
// queued), hand the crawler its job and wait for it, then decide from the analysis item — not from the
// crawler's answer — what comes next: a finished analysis frees its slot, a held one continues in a new run.
// It has the table access the crawler lacks (analyses, run slots) and is the only consumer of the crawl
// queue, so no crawler ever reads another analysis' message or token (README, "Crawler confinement").
//
// At-least-once delivery: every run claims the analysis with a new token and a lease, so a duplicate
// delivery finds it held and does nothing. An error releases the lease and is thrown, so the message is
// delivered again and the next run resumes from the last checkpoint.
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { errorFields, type Logger } from '../logger';
import { crawlMessageSchema } from '../queue/message';
import type { AnalysisQueue } from '../queue/queue';
import { getAnalysis } from '../store/analyses';
import { claimAnalysis, queueAnalysis, releaseAnalysis } from '../store/analysis-runs';
import type { Db } from '../store/db';
import { acquireRunSlot, releaseRunSlot } from '../store/run-slots';
import { newRunToken, runTokenDigest } from '../store/run-token';
import type { AnalysisJob, AnalysisJobResult } from './job';
import { queuedRecheckSeconds, wakeNextWaiting } from './queued-wait';

/** Runs one job in the crawler: in-process locally, a synchronous Lambda invocation in AWS. */
export type JobRunner = (job: AnalysisJob) => Promise<AnalysisJobResult>;

export interface CoordinatorDeps {
  db: Db;
  queue: AnalysisQueue;
  logger: Logger;
  runJob: JobRunner;
  /** Seconds a queued analysis first waits before its run looks for a free slot again (then longer). */
  queuedRecheckSeconds?: number;
}

/** A lease outlives the run by this much, so a crashed run is taken over soon after. */
const LEASE_MARGIN_MS = 60_000;
const QUEUED_RECHECK_SECONDS = 30;

export async function coordinateRun(
  deps: CoordinatorDeps,
  analysisId: string,
  runDeadline: number,
): Promise<void> {
  const { db } = deps;
  const runToken = newRunToken();
  const runId = runTokenDigest(runToken);
  // The digest's first characters tell runs apart in the logs; the token itself is never logged.
  const log = deps.logger.child({ analysisId, run: runId.slice(0, 8) });
  const leaseUntil = runDeadline + LEASE_MARGIN_MS;
  const analysis = await claimAnalysis(db, analysisId, runId, leaseUntil - Date.now());
  if (!analysis?.checkpointId) {
    log.info('analysis is finished or held by another run; message dropped');
    return;
  }
  const slot = { userId: analysis.userId, analysisId };
  if (!(await acquireRunSlot(db, { ...slot, leaseUntil }))) {
    // The user's other analyses hold every slot: wait, shown as queued, and look again later (or sooner,
    // woken by the run that frees a slot).
    const wait = queuedRecheckSeconds(deps.queuedRecheckSeconds ?? QUEUED_RECHECK_SECONDS, analysis.runs);
    if (await queueAnalysis(db, analysisId, runId, Date.now() + wait * 1000 + LEASE_MARGIN_MS)) {
      await deps.queue.send({ analysisId }, { group: analysis.userId, delaySeconds: wait });
      log.info('analysis queued: the user has no free run slot', { waitSeconds: wait });
    }
    return;
  }
  let answer: AnalysisJobResult;
  try {
    answer = await deps.runJob({
      analysisId,
      runToken,
      crawlRequest: analysis.crawlRequest,
      reportUri: analysis.reportUri ?? null,
      checkpointId: analysis.checkpointId,
      resume: analysis.runs > 1,
      deadline: runDeadline,
    });
  } catch (err) {
    const message = errorFields(err).error;
    log.error('crawl run failed; the message will be delivered again', errorFields(err));
    await releaseAnalysis(db, analysisId, runId, message).catch(() => {});
    await releaseRunSlot(db, slot).catch(() => {});
    await wakeNextWaiting(db, deps.queue, analysis.userId, log);
    throw err;
  }

  // The crawler's answer is a hint (the crawler may be a hostile page's): the item says what happened.
  const now = await getAnalysis(db, analysisId, true);
  if (!now || now.status === 'completed' || now.status === 'failed') {
    await releaseRunSlot(db, slot);
    await wakeNextWaiting(db, deps.queue, analysis.userId, log);
    return;
  }
  if (now.runId !== runId) {
    log.warn('another run took the analysis over; this run ends without writing');
    return;
  }
  if (answer.outcome === 'continue') {
    // The slot stays held for the continuation.
    if (!(await releaseAnalysis(db, analysisId, runId))) return;
    await deps.queue.send({ analysisId }, { group: analysis.userId, delaySeconds: answer.delaySeconds });
    log.info('crawl continues in a new run', { delaySeconds: answer.delaySeconds });
    return;
  }
  // Still held by this run, yet not continuing: the crawler broke off without a result.
  const message = `The crawler ended its run without a result (${answer.outcome}).`;
  await releaseAnalysis(db, analysisId, runId, message);
  await releaseRunSlot(db, slot);
  await wakeNextWaiting(db, deps.queue, analysis.userId, log);
  throw new Error(message);
}

export interface CoordinatorHandlerDeps extends CoordinatorDeps {
  /** Longest a run may take when the platform sets no deadline (locally): the Lambda's 15 min less margin. */
  runBudgetMs?: number;
  /** Kept free after the crawler's deadline for the coordinator's own work (AWS). */
  reserveMs?: number;
}

export interface InvocationContext {
  getRemainingTimeInMillis(): number;
}

const DEFAULT_RUN_BUDGET_MS = 14 * 60_000;

export function createCoordinatorHandler(deps: CoordinatorHandlerDeps) {
  return async function crawlHandler(
    event: SQSEvent,
    context?: InvocationContext,
  ): Promise<SQSBatchResponse> {
    const started = Date.now();
    const runDeadline = context
      ? started + context.getRemainingTimeInMillis() - (deps.reserveMs ?? 0)
      : started + (deps.runBudgetMs ?? DEFAULT_RUN_BUDGET_MS);
    const batchItemFailures: SQSBatchItemFailure[] = [];
    // One record at a time: each crawl runs its own Chromium, and a failed record must not fail the others.
    for (const record of event.Records) {
      const parsed = crawlMessageSchema.safeParse(safeJson(record.body));
      if (!parsed.success) {
        // Delivering it again cannot make it readable.
        deps.logger.error('unreadable crawl message dropped', { messageId: record.messageId });
        continue;
      }
      try {
        await coordinateRun(deps, parsed.data.analysisId, runDeadline);
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
