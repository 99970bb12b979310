// The crawl queue in AWS sends through the real @aws-sdk/client-sqs (to SQS's protocol on loopback): every
// message names its user as MessageGroupId, which is what makes a standard queue a fair queue.
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LoopbackSqs, startLoopbackSqs } from '../testing/loopback-sqs';
import { createSqsQueue } from './sqs-queue';

let sqs: LoopbackSqs;
beforeAll(async () => {
  sqs = await startLoopbackSqs();
});
afterAll(() => sqs?.close());

it('sends each crawl message in its user group, delayed when asked', async () => {
  const client = new SQSClient({
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
  });
  const queue = createSqsQueue(sqs.queueUrl('crawl'), client);
  await queue.send({ analysisId: 'a1' }, { group: 'user-1' });
  await queue.send({ analysisId: 'a2' }, { group: 'user-2', delaySeconds: 30 });
  expect(sqs.messages('crawl').map((b) => JSON.parse(b).analysisId)).toEqual(['a1', 'a2']);
  expect(sqs.groups('crawl')).toEqual(['user-1', 'user-2']);
});
