// The coordinator's JobRunner in AWS: a synchronous invocation of the crawler function, answered when the run
// ends (at most 15 minutes). No SDK retry: a retried invocation would run the job twice.
import { LambdaClient } from '@aws-sdk/client-lambda';
import { invokeJson } from '../aws/lambda-invoke';
import type { JobRunner } from './coordinator';
import { analysisJobResultSchema } from './job';

const INVOKE_TIMEOUT_MS = 16 * 60_000;

export function lambdaJobRunner(
  functionName: string,
  client = new LambdaClient({ maxAttempts: 1, requestHandler: { requestTimeout: INVOKE_TIMEOUT_MS } }),
): JobRunner {
  return async (job) =>
    analysisJobResultSchema.parse(await invokeJson(client, functionName, job, 'The crawler'));
}
