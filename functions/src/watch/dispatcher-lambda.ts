// AWS Lambda entry of the schedule dispatcher, invoked by one EventBridge Scheduler schedule every five
// minutes: starts the analyses of every domain whose schedule is due (watch/dispatch.ts), as the API would.
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createSqsQueue } from '../queue/sqs-queue';
import { createDb } from '../store/db';
import { dispatchDueSchedules } from './dispatch';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { fn: 'schedule-dispatcher' });
const db = createDb({
  table: config.TABLE_NAME,
  endpoint: config.DYNAMODB_ENDPOINT,
  region: config.AWS_REGION,
});

const queue = config.CRAWL_QUEUE_URL ? createSqsQueue(config.CRAWL_QUEUE_URL) : null;

export const handler = async () => {
  if (!queue) throw new Error('CRAWL_QUEUE_URL is not set');
  return dispatchDueSchedules({ db, config, logger, queue }, Date.now());
};
