// AWS Lambda entry of the report endpoint (a Lambda Function URL, behind CloudFront or public: payload v2
// shape). Clients are built once per container; the Hono app is the one the local server mounts.
import type { ReportMessage } from '@csp/shared/schemas/report';
import { handle } from 'hono/aws-lambda';
import { loadOriginVerify } from '../aws/secrets';
import { loadConfig } from '../config';
import { createLogger, errorFields } from '../logger';
import { createSqsReportQueue } from '../queue/sqs-report-queue';
import { createDb } from '../store/db';
import { createIngestApp } from './app';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { fn: 'report-ingest' });
const db = createDb({
  table: config.TABLE_NAME,
  endpoint: config.DYNAMODB_ENDPOINT,
  region: config.AWS_REGION,
});

let appPromise: Promise<ReturnType<typeof handle>> | null = null;
function app() {
  appPromise ??= loadOriginVerify((err) =>
    logger.warn('origin-verify refresh failed', errorFields(err)),
  ).then((originVerify) => {
    if (!config.REPORT_QUEUE_URL) throw new Error('REPORT_QUEUE_URL is not set');
    return handle(
      createIngestApp({
        db,
        config,
        logger,
        queue: createSqsReportQueue<ReportMessage>(config.REPORT_QUEUE_URL),
        originVerify,
      }),
    );
  });
  return appPromise;
}

export const handler: ReturnType<typeof handle> = async (event, context) => (await app())(event, context);
