// AWS Lambda entry of the crawl coordinator: SQS events from the crawl queue (batch size 1, partial batch
// failures). It claims each analysis and invokes the crawler function synchronously with the run's job.
import type { Context, SQSEvent } from 'aws-lambda';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createSqsQueue } from '../queue/sqs-queue';
import { createDb } from '../store/db';
import { createCoordinatorHandler } from './coordinator';
import { lambdaJobRunner } from './lambda-job-runner';

/** Kept after the crawler's deadline for reading the outcome, releasing and queueing a continuation. */
const COORDINATOR_RESERVE_MS = 45_000;

const config = loadConfig();
if (!config.CRAWL_QUEUE_URL) throw new Error('CRAWL_QUEUE_URL is not set');
if (!config.CRAWLER_FUNCTION) throw new Error('CRAWLER_FUNCTION is not set');
const coordinator = createCoordinatorHandler({
  db: createDb({ table: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION }),
  queue: createSqsQueue(config.CRAWL_QUEUE_URL),
  logger: createLogger(config.LOG_LEVEL, { fn: 'crawl-coordinator' }),
  runJob: lambdaJobRunner(config.CRAWLER_FUNCTION),
  reserveMs: COORDINATOR_RESERVE_MS,
});

export const handler = (event: SQSEvent, context: Context) => coordinator(event, context);
