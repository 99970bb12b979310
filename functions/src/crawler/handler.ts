// The crawl queue's handler: the coordinator's SQS entry in AWS (coordinator-lambda.ts) and the in-process
// queue's handler in `npm start`. Thin: it reads each record, gives the run its deadline and reports failures
// per record; a run is coordinator.ts, the crawl itself run-analysis.ts. Locally createCrawlHandler wires the
// same split in one process: the coordinator hands jobs to the crawler code in-process, and the crawler
// writes through the real crawl writer in-process, on the same interfaces the Lambdas use.
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type CrawlWriter, inProcessCrawlWriter } from '../crawl-writer/writer';
import { crawlMessageSchema } from '../queue/message';
import type { Db } from '../store/db';
import { type CoordinatorDeps, coordinateRun } from './coordinator';
import { type AnalysisJob, analysisJobResultSchema, analysisJobSchema } from './job';
import { type AnalysisJobDeps, runAnalysisJob } from './run-analysis';

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

export interface CrawlHandlerDeps
  extends Omit<CoordinatorHandlerDeps, 'runJob' | 'reserveMs'>,
    Omit<AnalysisJobDeps, 'writer'> {
  /** The coordinator's table. */
  db: Db;
  /** The crawler's writer. Default: the real writer in-process, on `db`. */
  writer?: CrawlWriter;
}

/** Coordinator, crawler and writer in one process (`npm start`, tests). */
export function createCrawlHandler(deps: CrawlHandlerDeps) {
  const writer = deps.writer ?? inProcessCrawlWriter(deps.db, deps.logger);
  // The job and the answer go through JSON and their schemas, as they do between the Lambdas.
  const runJob = async (job: AnalysisJob) =>
    analysisJobResultSchema.parse(
      await runAnalysisJob({ ...deps, writer }, analysisJobSchema.parse(JSON.parse(JSON.stringify(job)))),
    );
  return createCoordinatorHandler({ ...deps, runJob });
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
