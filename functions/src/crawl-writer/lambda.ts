// AWS Lambda entry of the crawl writer: invoked by the crawler only (its role may invoke nothing else), one
// request per invocation (requests.ts). Its own role writes analyses and achievements, nothing else.
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createDb } from '../store/db';
import { handleWriterRequest } from './writer';

const config = loadConfig();
const db = createDb({
  table: config.TABLE_NAME,
  endpoint: config.DYNAMODB_ENDPOINT,
  region: config.AWS_REGION,
});
const logger = createLogger(config.LOG_LEVEL, { fn: 'crawl-writer' });

export const handler = (event: unknown) => handleWriterRequest(db, logger, event);
