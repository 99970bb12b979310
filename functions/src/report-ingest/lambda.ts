// AWS Lambda entry of the report endpoint (API Gateway payload v2, or a Lambda Function URL: same event
// shape). Clients are built once per container; the Hono app is the one the local server mounts.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ReportMessage } from '@csp/shared/schemas/report';
import { handle } from 'hono/aws-lambda';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
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

async function originVerify(): Promise<string | undefined> {
  const arn = process.env.ORIGIN_VERIFY_SECRET_ARN;
  if (!arn) return process.env.ORIGIN_VERIFY;
  const res = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  return res.SecretString;
}

let appPromise: Promise<ReturnType<typeof handle>> | null = null;
function app() {
  appPromise ??= originVerify().then((secret) => {
    if (!config.REPORT_QUEUE_URL) throw new Error('REPORT_QUEUE_URL is not set');
    return handle(
      createIngestApp({
        db,
        config,
        logger,
        queue: createSqsReportQueue<ReportMessage>(config.REPORT_QUEUE_URL),
        originVerify: secret,
      }),
    );
  });
  return appPromise;
}

export const handler: ReturnType<typeof handle> = async (event, context) => (await app())(event, context);
