// One SQS record as Lambda's event source delivers it, for tests of the queue handlers.
import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';

export function sqsRecord(
  body: string,
  opts: { messageId?: string; receives?: number; sentAt?: number } = {},
): SQSRecord {
  const messageId = opts.messageId ?? randomUUID();
  const sent = String(opts.sentAt ?? Date.now());
  return {
    messageId,
    receiptHandle: messageId,
    body,
    attributes: {
      ApproximateReceiveCount: String(opts.receives ?? 1),
      SentTimestamp: sent,
      SenderId: 'AIDAEXAMPLE',
      ApproximateFirstReceiveTimestamp: sent,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:queue',
    awsRegion: 'us-east-1',
  };
}
