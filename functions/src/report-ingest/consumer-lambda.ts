// AWS Lambda entry of the report consumer, on the report queue's event source (batches, partial failures
// reported with ReportBatchItemFailures).
import type { SQSEvent } from 'aws-lambda';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createDb } from '../store/db';
import { createReportConsumer } from './consumer';

const config = loadConfig();
const consume = createReportConsumer({
  db: createDb({ table: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION }),
  logger: createLogger(config.LOG_LEVEL, { fn: 'report-consumer' }),
});

export const handler = (event: SQSEvent) => consume(event);
