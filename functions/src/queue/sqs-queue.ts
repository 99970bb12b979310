// The crawl queue in AWS: SQS, a standard queue used as a fair queue. Every message carries its user's id as
// MessageGroupId: on a standard queue that is all fair queues need (no queue setting), and SQS then serves
// the messages of quiet users first while one user has many in flight. DelaySeconds (at most 900) spaces
// continuations and slot re-checks without a sleeping Lambda.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { CrawlMessage } from './message';
import type { AnalysisQueue, SendOptions } from './queue';

export function createSqsQueue(queueUrl: string, client = new SQSClient({})): AnalysisQueue {
  return {
    async send(message: CrawlMessage, { group, delaySeconds = 0 }: SendOptions) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(message),
          MessageGroupId: group,
          DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
        }),
      );
    },
  };
}
