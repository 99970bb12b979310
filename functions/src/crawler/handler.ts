// The crawl queue's handler: the same code in the crawler Lambda (SQS) and in `npm start` (LocalQueue).
// Thin: it reads each record, gives the run its deadline and reports failures per record; the analysis
// run itself is run-analysis.ts.
import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { crawlMessageSchema } from '../queue/message';
import { type AnalysisRunDeps, runAnalysis } from './run-analysis';

export interface CrawlHandlerDeps extends AnalysisRunDeps {
  /** Longest a run may take when the platform sets no deadline (locally): the Lambda's 15 min less margin. */
  runBudgetMs?: number;
}

export interface InvocationContext {
  getRemainingTimeInMillis(): number;
}

const DEFAULT_RUN_BUDGET_MS = 14 * 60_000;

export function createCrawlHandler(deps: CrawlHandlerDeps) {
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
      const parsed = crawlMessageSchema.safeParse(safeJson(record.body));
      if (!parsed.success) {
        // Delivering it again cannot make it readable.
        deps.logger.error('unreadable crawl message dropped', { messageId: record.messageId });
        continue;
      }
      try {
        await runAnalysis(deps, parsed.data.analysisId, runDeadline);
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
