// AWS Lambda entry of the API (API Gateway HTTP API, payload v2). Clients and secrets are built once per
// container; the Hono app is the same one the local server mounts.
import { handle } from 'hono/aws-lambda';
import { loadAwsSecrets } from '../aws/secrets';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createSqsQueue } from '../queue/sqs-queue';
import { createDb } from '../store/db';
import { createApiApp } from './app';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { fn: 'api' });
const db = createDb({
  table: config.TABLE_NAME,
  endpoint: config.DYNAMODB_ENDPOINT,
  region: config.AWS_REGION,
});

let appPromise: Promise<ReturnType<typeof handle>> | null = null;
function app() {
  appPromise ??= loadAwsSecrets(config, process.env.SECRETS_ARN).then((secrets) => {
    if (!config.CRAWL_QUEUE_URL) throw new Error('CRAWL_QUEUE_URL is not set');
    return handle(
      createApiApp({ db, config, secrets, logger, queue: createSqsQueue(config.CRAWL_QUEUE_URL) }),
    );
  });
  return appPromise;
}

export const handler: ReturnType<typeof handle> = async (event, context) => (await app())(event, context);
