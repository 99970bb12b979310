// AWS Lambda entry of the API (a Function URL behind CloudFront: payload v2). Clients and secrets are built
// once per container; the Hono app is the same one the local server mounts.
import { handle } from 'hono/aws-lambda';
import { mailSettingsLoader } from '../aws/mail-settings';
import { loadAwsSecrets } from '../aws/secrets';
import { loadConfig } from '../config';
import { withViewerHost } from '../http/viewer-host';
import { createLogger, errorFields } from '../logger';
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
  appPromise ??= Promise.all([
    loadAwsSecrets(config, process.env.SECRETS_ARN),
    // Invitations and "Send test" mail through the mail secret's server, read once per container. Without
    // it the API still answers: an invitation's link is copied instead.
    mailSettingsLoader(config)().catch((err: unknown) => {
      logger.error('mail settings not read: nothing is mailed', errorFields(err));
      return {};
    }),
  ]).then(([secrets, mail]) => {
    if (!config.CRAWL_QUEUE_URL) throw new Error('CRAWL_QUEUE_URL is not set');
    if (!config.REPORT_QUEUE_URL) throw new Error('REPORT_QUEUE_URL is not set');
    const handler = handle(
      createApiApp({
        db,
        config: { ...config, ...mail },
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
