// AWS Lambda entry of the watch's tick, invoked by one EventBridge Scheduler schedule every five minutes:
// starts the analyses of every domain whose schedule is due (watch/dispatch.ts), as the API would, checks
// the flow of reports and sends the alert deliveries that are due (watch-tick.ts), e-mail through the
// mail secret's server (aws/mail-settings.ts).

import { mailSettingsLoader } from '../aws/mail-settings';
import { loadAwsSecrets } from '../aws/secrets';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { createSqsQueue } from '../queue/sqs-queue';
import { createDb } from '../store/db';
import { watchTick } from './watch-tick';

const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, { fn: 'schedule-dispatcher' });
const db = createDb({
  table: config.TABLE_NAME,
  endpoint: config.DYNAMODB_ENDPOINT,
  region: config.AWS_REGION,
});

const queue = config.CRAWL_QUEUE_URL ? createSqsQueue(config.CRAWL_QUEUE_URL) : null;

// Read once per container: the key that opens webhook secrets.
let secrets: ReturnType<typeof loadAwsSecrets> | undefined;
const mailSettings = mailSettingsLoader(config);

export const handler = async () => {
  if (!queue) throw new Error('CRAWL_QUEUE_URL is not set');
  if (!config.PUBLIC_URL) throw new Error('PUBLIC_URL is not set (alert links are made on it)');
  secrets ??= loadAwsSecrets(config, process.env.SECRETS_ARN);
  const alerts = {
    db,
    config: { ...config, ...(await mailSettings()) },
    secrets: await secrets,
    log: logger,
    publicUrl: config.PUBLIC_URL,
  };
  return watchTick({ db, config, logger, queue, alerts }, Date.now());
};
