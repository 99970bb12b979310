// What happens to a crawl message that failed every delivery: its analysis is failed with the reason, so
// nothing is left "running" forever. In AWS this is the handler of the dead-letter queue.
import type { SQSEvent } from 'aws-lambda';
import type { Logger } from '../logger';
import { getAnalysis } from '../store/analyses';
import { failAnalysis } from '../store/analysis-runs';
import type { Db } from '../store/db';
import { crawlMessageSchema } from './message';

export function createDeadLetterHandler(db: Db, logger: Logger) {
  return async function deadLetterHandler(event: SQSEvent) {
    for (const record of event.Records) {
      const parsed = crawlMessageSchema.safeParse(safeJson(record.body));
      if (!parsed.success) {
        logger.error('unreadable dead-letter message', { messageId: record.messageId });
        continue;
      }
      const receives = record.attributes.ApproximateReceiveCount;
      const analysis = await getAnalysis(db, parsed.data.analysisId);
      const reason = analysis?.lastError ? ` Last error: ${analysis.lastError}` : '';
      await failAnalysis(db, parsed.data.analysisId, null, [
        `The crawl stopped after ${receives} failed attempts and was abandoned.${reason} Please start a new analysis.`,
      ]);
    }
  };
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
