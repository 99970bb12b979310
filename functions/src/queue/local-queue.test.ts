// The local crawl queue delivers round-robin by group (user): in order within a group, the least recently
// served group first, delayed, re-sent and retried messages included.
import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { LocalQueue } from './local-queue';

const logger = createLogger('silent');
let queue: LocalQueue | undefined;
afterEach(async () => {
  await queue?.close();
  queue = undefined;
});

/**
 * A queue with one delivery at a time whose handler records `group:name` and waits until released, so the
 * test sends everything before the first delivery ends.
 */
function recordingQueue(onDeliver?: (name: string, q: LocalQueue) => Promise<void> | void) {
  const seen: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const q: LocalQueue = new LocalQueue({
    logger,
    concurrency: 1,
    visibilityTimeoutMs: 10,
    deadLetter: async () => {},
    handler: async (event: SQSEvent) => {
      const record = event.Records[0]!;
      const { name } = JSON.parse(record.body) as { name: string };
      seen.push(`${record.attributes.MessageGroupId}:${name}`);
      await gate;
      await onDeliver?.(name, q);
      return { batchItemFailures: [] };
    },
  });
  queue = q;
  return { q, seen, release };
}

describe('LocalQueue round-robin by group', () => {
  it('alternates between groups, each in its own order, whatever the sending order', async () => {
    const { q, seen, release } = recordingQueue();
    for (let i = 1; i <= 5; i++) await q.send({ name: `a${i}` }, { group: 'A' });
    await q.send({ name: 'b1' }, { group: 'B' });
    await q.send({ name: 'b2' }, { group: 'B' });
    await q.send({ name: 'c1' }, { group: 'C' });
    release();
    await q.idle();
    // a1 was delivered as it came; then the groups never served, then whoever was served longest ago.
    expect(seen).toEqual(['A:a1', 'B:b1', 'C:c1', 'A:a2', 'B:b2', 'A:a3', 'A:a4', 'A:a5']);
  });

  it("serves a new group's message next, ahead of a backlog: one delivery per free slot at most", async () => {
    const { q, seen, release } = recordingQueue(() => new Promise((r) => setTimeout(r, 10)));
    for (let i = 1; i <= 20; i++) await q.send({ name: `a${i}` }, { group: 'A' });
    release();
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(3);
    // The delivery under way when B arrives is the last of A's before B's.
    const underWay = seen.length;
    await q.send({ name: 'b1' }, { group: 'B' });
    await q.idle();
    expect(seen.indexOf('B:b1')).toBe(underWay);
    expect(seen.filter((s) => s.startsWith('A:'))).toEqual(
      Array.from({ length: 20 }, (_, i) => `A:a${i + 1}`),
    );
  });

  it('puts delayed and re-sent messages at the back of their own group, not ahead of other groups', async () => {
    const { q, seen, release } = recordingQueue(async (name, queue) => {
      // Like a crawl run without a free slot: the message comes back into its group after a delay.
      if (name === 'a1') await queue.send({ name: 'a1-again' }, { group: 'A', delaySeconds: 0.05 });
    });
    await q.send({ name: 'a1' }, { group: 'A' });
    await q.send({ name: 'a2' }, { group: 'A' });
    await q.send({ name: 'b1' }, { group: 'B' });
    await q.send({ name: 'late' }, { group: 'B', delaySeconds: 0.02 });
    release();
    await q.idle();
    expect(seen).toEqual(['A:a1', 'B:b1', 'A:a2', 'B:late', 'A:a1-again']);
  });

  it('delivers a failed message again in its group after the visibility timeout', async () => {
    const seen: string[] = [];
    let failedOnce = false;
    queue = new LocalQueue({
      logger,
      concurrency: 1,
      visibilityTimeoutMs: 20,
      deadLetter: async () => {},
      handler: async (event) => {
        const record = event.Records[0]!;
        const { name } = JSON.parse(record.body) as { name: string };
        seen.push(`${record.attributes.MessageGroupId}:${name}`);
        if (name === 'a1' && !failedOnce) {
          failedOnce = true;
          throw new Error('crawler crashed');
        }
        // b1 is handled for longer than the visibility timeout, whose timer was set before this one and so
        // fires first however loaded the machine: the retry of a1 is ready before b1 ends, without a race.
        if (name === 'b1') await new Promise((r) => setTimeout(r, 100));
        return { batchItemFailures: [] };
      },
    });
    await queue.send({ name: 'a1' }, { group: 'A' });
    await queue.send({ name: 'b1' }, { group: 'B' });
    await queue.send({ name: 'b2' }, { group: 'B' });
    await queue.send({ name: 'b3' }, { group: 'B' });
    await queue.idle();
    // The retry of a1 became ready while b1 was handled; A, served longest ago, comes before b2.
    expect(seen).toEqual(['A:a1', 'B:b1', 'A:a1', 'B:b2', 'B:b3']);
  });
});
