// AWS Lambda entry of the API (a Function URL behind CloudFront: payload v2). Clients and secrets are built
// once per container; the Hono app is the same one the local server mounts.
import { handle } from 'hono/aws-lambda';
import { loadAwsSecrets } from '../aws/secrets';
import { loadConfig } from '../config';
import { withViewerHost } from '../http/viewer-host';
import { createLogger } from '../logger';
import { createSqsQueue } from '../queue/sqs-queue';
import { createSqsReportQueue } from '../queue/sqs-report-queue';
import { createDb } from '../store/db';
import { createApiApp } from './app';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { fn: 'api' });
const db = createDb({
  table: config.TABLE_NAME,
  endpoint: config.DYNAMODB_ENDPOINT,
  region: config.AWS_REGION,
});

type Handler = ReturnType<typeof handle>;

let appPromise: Promise<Handler> | null = null;
function app() {
  appPromise ??= loadAwsSecrets(config, process.env.SECRETS_ARN).then((secrets) => {
    if (!config.CRAWL_QUEUE_URL) throw new Error('CRAWL_QUEUE_URL is not set');
    if (!config.REPORT_QUEUE_URL) throw new Error('REPORT_QUEUE_URL is not set');
    const handler = handle(
      createApiApp({
        db,
        config,
        secrets,
        logger,
        queue: createSqsQueue(config.CRAWL_QUEUE_URL),
        reportQueue: createSqsReportQueue(config.REPORT_QUEUE_URL),
      }),
    );
    // The public origin is the host the viewer asked CloudFront for (http/viewer-host.ts).
    const accepted = () => secrets.originVerify?.accepted() ?? [];
    return ((event, context) =>
      handler(
        withViewerHost(event as Parameters<typeof withViewerHost>[0], accepted()) as typeof event,
        context,
      )) as Handler;
  });
  return appPromise;
}

export const handler: Handler = async (event, context) => (await app())(event, context);
