// The crawl queue when running locally: in-process, but with SQS's contract — the handler gets an SQS
// event, failed records (thrown or listed in batchItemFailures) are delivered again after a visibility
// timeout, and after maxReceiveCount deliveries a record goes to the dead-letter handler.
//
// Fair by group (the user id), as SQS fair queues are in AWS, but strictly: the messages of one group are
// delivered in the order they became ready, and each delivery goes to the group served least recently among
// those with a ready message (a group never served first; ties by which message was ready first). Delayed,
// re-sent and retried messages join their group when they become ready. So a user with a backlog delays
// another user's new message by at most one delivery per handler slot.
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { errorFields, type Logger } from '../logger';
import type { AnalysisQueue, SendOptions } from './queue';

// biome-ignore lint/suspicious/noConfusingVoidType: an SQS handler may return nothing, as Lambda allows
export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined | void>;

export interface LocalQueueOptions {
  handler: SqsHandler;
  deadLetter: SqsHandler;
  logger: Logger;
  maxReceiveCount?: number;
  visibilityTimeoutMs?: number;
  /** Messages handled at the same time (each crawl runs one Chromium). */
  concurrency?: number;
}

interface Pending {
  id: string;
  body: string;
  group: string;
  receiveCount: number;
  /** When it became ready (a sequence number), for ties between groups never served. */
  readyAt: number;
}

export class LocalQueue implements AnalysisQueue {
  /** Ready messages per group, each in the order they became ready. */
  private readonly ready = new Map<string, Pending[]>();
  /** When each group was last served (a sequence number). */
  private readonly lastServed = new Map<string, number>();
  private sequence = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly opts: LocalQueueOptions) {}

  /** Tests shorten the wait before a failed message is delivered again. */
  setVisibilityTimeoutMs(ms: number) {
    this.opts.visibilityTimeoutMs = ms;
  }

  async send(message: object, { group, delaySeconds = 0 }: SendOptions): Promise<void> {
    if (this.closed) throw new Error('The queue is closed');
    const p = { id: randomUUID(), body: JSON.stringify(message), group, receiveCount: 0, readyAt: 0 };
    this.enqueue(p, delaySeconds * 1000);
  }

  /** Resolves when nothing is queued, delayed or being handled. */
  async idle(): Promise<void> {
    while (this.ready.size > 0 || this.timers.size > 0 || this.inFlight.size > 0) {
      await Promise.race([...this.inFlight, new Promise((r) => setTimeout(r, 50))]);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.ready.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private enqueue(p: Pending, delayMs: number) {
    if (this.closed) return;
    if (delayMs <= 0) {
      this.makeReady(p);
      return;
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.makeReady(p);
    }, delayMs);
    this.timers.add(t);
  }

  private makeReady(p: Pending) {
    p.readyAt = ++this.sequence;
    const list = this.ready.get(p.group);
    if (list) list.push(p);
    else this.ready.set(p.group, [p]);
    this.pump();
  }

  /** The next message: the head of the least recently served group that has one ready. */
  private next(): Pending | undefined {
    let best: { group: string; served: number; head: Pending } | undefined;
    for (const [group, list] of this.ready) {
      const head = list[0]!;
      const served = this.lastServed.get(group) ?? 0;
      if (!best || served < best.served || (served === best.served && head.readyAt < best.head.readyAt)) {
        best = { group, served, head };
      }
    }
    if (!best) return undefined;
    const list = this.ready.get(best.group)!;
    list.shift();
    if (list.length === 0) this.ready.delete(best.group);
    this.lastServed.set(best.group, ++this.sequence);
    return best.head;
  }

  private pump() {
    const limit = this.opts.concurrency ?? 2;
    while (!this.closed && this.inFlight.size < limit && this.ready.size > 0) {
      const p = this.next()!;
      const run = this.deliver(p).finally(() => {
        this.inFlight.delete(run);
        this.pump();
      });
      this.inFlight.add(run);
    }
  }

  private async deliver(p: Pending) {
    p.receiveCount += 1;
    const record = toRecord(p);
    let failed = false;
    let reason = '';
    try {
      const res = await this.opts.handler({ Records: [record] });
      failed = Boolean(res?.batchItemFailures?.some((f) => f.itemIdentifier === p.id));
      reason = 'the handler reported the record as failed';
    } catch (err) {
      failed = true;
      reason = errorFields(err).error;
    }
    if (!failed) return;
    const max = this.opts.maxReceiveCount ?? 3;
    if (p.receiveCount < max) {
      this.opts.logger.warn('crawl message failed, will be delivered again', { messageId: p.id, reason });
      this.enqueue(p, this.opts.visibilityTimeoutMs ?? 5000);
      return;
    }
    this.opts.logger.error('crawl message moved to the dead-letter handler', { messageId: p.id, reason });
    try {
      await this.opts.deadLetter({ Records: [toRecord(p)] });
    } catch (err) {
      this.opts.logger.error('dead-letter handler failed', errorFields(err));
    }
  }
}

function toRecord(p: Pending): SQSRecord {
  const now = String(Date.now());
  return {
    messageId: p.id,
    receiptHandle: p.id,
    body: p.body,
    attributes: {
      ApproximateReceiveCount: String(p.receiveCount),
      SentTimestamp: now,
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: now,
      MessageGroupId: p.group,
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:crawl',
    awsRegion: 'local',
  };
}
