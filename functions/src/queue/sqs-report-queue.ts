// The report queue in AWS: SQS. A request's messages go in one SendMessageBatch (10 at most per call);
// the call resolves only when SQS has stored every one, and anything it did not store is an error, so the
// request is not answered 204.
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DurableQueue } from './queue';

export function createSqsReportQueue<M extends object>(
  queueUrl: string,
  client = new SQSClient({}),
): DurableQueue<M> {
  return {
    async sendAll(messages) {
      for (let i = 0; i < messages.length; i += 10) {
        const entries = messages
          .slice(i, i + 10)
          .map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) }));
        let left = entries;
        for (let attempt = 0; left.length > 0; attempt++) {
          if (attempt >= 3) throw new Error(`SQS did not store ${left.length} report message(s)`);
          const out = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: left }));
          const failed = new Set((out.Failed ?? []).map((f) => f.Id));
          left = left.filter((e) => failed.has(e.Id));
        }
      }
    },
  };
}
