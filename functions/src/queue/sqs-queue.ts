// The crawl queue in AWS: SQS. DelaySeconds (at most 900) spaces continuations without a sleeping Lambda.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { AnalysisQueue } from '../api/deps';
import type { CrawlMessage } from './message';

export function createSqsQueue(queueUrl: string, client = new SQSClient({})): AnalysisQueue {
  return {
    async send(message: CrawlMessage, delaySeconds = 0) {
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: JSON.stringify(message),
          DelaySeconds: Math.max(0, Math.min(900, Math.round(delaySeconds))),
        }),
      );
    },
  };
}
