// AWS Lambda entry of the crawl dead-letter queue: fails the analysis of every message that exhausted its
// deliveries, so the user sees why instead of a crawl stuck in "running".
import type { SQSEvent } from 'aws-lambda';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createDb } from '../store/db';
import { createDeadLetterHandler } from './dead-letter';

const config = loadConfig();
const db = createDb({
  table: config.TABLE_NAME,
  endpoint: config.DYNAMODB_ENDPOINT,
  region: config.AWS_REGION,
});
const deadLetter = createDeadLetterHandler(db, createLogger(config.LOG_LEVEL, { fn: 'crawl-dead-letter' }));

export const handler = (event: SQSEvent) => deadLetter(event);
