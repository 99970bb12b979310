// AWS Lambda entry of the report consumer, on the report queue's event source (batches, partial failures
// reported with ReportBatchItemFailures). It sends a clear message with more to delete back to its own queue.
import type { SQSEvent } from 'aws-lambda';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createSqsReportQueue } from '../queue/sqs-report-queue';
import { createDb } from '../store/db';
import { createReportConsumer } from './consumer';

const config = loadConfig();
if (!config.REPORT_QUEUE_URL) throw new Error('REPORT_QUEUE_URL is not set');
const consume = createReportConsumer({
  clear: { queue: createSqsReportQueue(config.REPORT_QUEUE_URL), stepMs: config.REPORT_CLEAR_STEP_MS },
  db: createDb({ table: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION }),
  logger: createLogger(config.LOG_LEVEL, { fn: 'report-consumer' }),
});

export const handler = (event: SQSEvent) => consume(event);
