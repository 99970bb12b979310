// AWS Lambda entry of the crawler: one job per synchronous invocation by the crawl coordinator (job.ts). Its
// role may invoke the crawl writer and touch the checkpoints in the blob bucket, nothing else: no table, no
// queue, no secret (README, "Crawler confinement").
import type { Context } from 'aws-lambda';
import { createBlobStore, S3BlobStore } from '../blobs';
import { loadConfig } from '../config';
import { lambdaCrawlWriter } from '../crawl-writer/lambda-client';
import { createLogger } from '../logger';
import { freshEnvironment } from './fresh-environment';
import { analysisJobSchema } from './job';
import { runAnalysisJob } from './run-analysis';

const config = loadConfig();
if (!config.CRAWL_WRITER_FUNCTION) throw new Error('CRAWL_WRITER_FUNCTION is not set');
const deps = {
  writer: lambdaCrawlWriter(config.CRAWL_WRITER_FUNCTION),
  // Without s3:ListBucket, S3 answers a missing checkpoint with AccessDenied: it is read as absent.
  blobs: config.BLOB_BUCKET
    ? new S3BlobStore(config.BLOB_BUCKET, undefined, { deniedMeansMissing: true })
    : createBlobStore(config),
  logger: createLogger(config.LOG_LEVEL, { fn: 'crawler' }),
  allowPrivateTargets: config.ALLOW_PRIVATE_TARGETS,
  // Chromium only in AWS: the Lambda image has no Firefox. What Firefox does differently reaches AWS
  // analyses through the engine table the generator reads.
  secondEngine: { unavailable: 'the crawler in AWS runs Chromium only (Lambda has no Firefox)' },
};

export const handler = async (event: unknown, context: Context) => {
  const job = analysisJobSchema.safeParse(event);
  if (!job.success) throw new Error('Not an analysis job');
  // What an earlier job's pages may have left in this warm environment goes before this job starts.
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) {
    deps.logger.info('environment reset before the job', await freshEnvironment());
  }
  return runAnalysisJob(deps, job.data, Date.now() + context.getRemainingTimeInMillis());
};
