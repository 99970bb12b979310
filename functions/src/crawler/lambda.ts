// AWS Lambda entry of the crawler: SQS events from the crawl queue (batch size 1, partial batch failures).
import type { Context, SQSEvent } from 'aws-lambda';
import { createBlobStore } from '../blobs';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createSqsQueue } from '../queue/sqs-queue';
import { createDb } from '../store/db';
import { createCrawlHandler } from './handler';

const config = loadConfig();
if (!config.CRAWL_QUEUE_URL) throw new Error('CRAWL_QUEUE_URL is not set');
const crawlHandler = createCrawlHandler({
  db: createDb({ table: config.TABLE_NAME, endpoint: config.DYNAMODB_ENDPOINT, region: config.AWS_REGION }),
  queue: createSqsQueue(config.CRAWL_QUEUE_URL),
  blobs: createBlobStore(config),
  logger: createLogger(config.LOG_LEVEL, { fn: 'crawler' }),
  allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
});

export const handler = (event: SQSEvent, context: Context) => crawlHandler(event, context);
