// The crawl queue when running locally: in-process, but with SQS's contract — the handler gets an SQS
// event, failed records (thrown or listed in batchItemFailures) are delivered again after a visibility
// timeout, and after maxReceiveCount deliveries a record goes to the dead-letter handler.
import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { AnalysisQueue } from '../api/deps';
import { errorFields, type Logger } from '../logger';

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
  receiveCount: number;
}

export class LocalQueue implements AnalysisQueue {
  private readonly ready: Pending[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly opts: LocalQueueOptions) {}

  /** Tests shorten the wait before a failed message is delivered again. */
  setVisibilityTimeoutMs(ms: number) {
    this.opts.visibilityTimeoutMs = ms;
  }

  async send(message: object, delaySeconds = 0): Promise<void> {
    if (this.closed) throw new Error('The queue is closed');
    this.enqueue({ id: randomUUID(), body: JSON.stringify(message), receiveCount: 0 }, delaySeconds * 1000);
  }

  /** Resolves when nothing is queued, delayed or being handled. */
  async idle(): Promise<void> {
    while (this.ready.length > 0 || this.timers.size > 0 || this.inFlight.size > 0) {
      await Promise.race([...this.inFlight, new Promise((r) => setTimeout(r, 50))]);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.ready.length = 0;
    await Promise.allSettled([...this.inFlight]);
  }

  private enqueue(p: Pending, delayMs: number) {
    if (this.closed) return;
    if (delayMs <= 0) {
      this.ready.push(p);
      this.pump();
      return;
    }
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.ready.push(p);
      this.pump();
    }, delayMs);
    this.timers.add(t);
  }

  private pump() {
    const limit = this.opts.concurrency ?? 2;
    while (!this.closed && this.inFlight.size < limit && this.ready.length > 0) {
      const p = this.ready.shift()!;
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
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:crawl',
    awsRegion: 'local',
  };
}
