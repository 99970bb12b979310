// The report queue when running locally: an append-only log under DATA_DIR with SQS's contract. A send
// resolves only after its line is written and fdatasync'ed (sends of the same moment share one write), so
// a report answered 204 survives `kill -9` and a power cut. A consumer reads batches from a cursor, calls
// the handler with an SQS event, and moves the cursor only after the handler returned: delivery is at least
// once, as in SQS. Records that may have been delivered before a restart carry a receive count above 1, so
// the consumer's double-delivery guard checks them. Failed records are appended again (their receive count
// raised) and after maxReceiveCount go to dead-letter.jsonl beside the log.
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { SQSRecord } from 'aws-lambda';
import { errorFields, type Logger } from '../logger';
import type { SqsHandler } from './local-queue';
import type { DurableQueue } from './queue';

export interface LocalDurableQueueOptions {
  dir: string;
  handler: SqsHandler;
  logger: Logger;
  /** Records per handler call (SQS allows up to 10,000 with a batching window). */
  maxBatch?: number;
  /** How long the consumer waits for a batch to fill once a record is there. */
  batchWindowMs?: number;
  maxReceiveCount?: number;
  /** Wait before a batch whose handler failed is tried again (doubles up to 30 s). */
  retryDelayMs?: number;
  /** A new log file is started past this size; fully consumed files are deleted. */
  segmentBytes?: number;
  queueName?: string;
}

interface LogRecord {
  id: string;
  /** Sent at (ms), like SQS's SentTimestamp. */
  t: number;
  /** Deliveries known to have happened before this line was written. */
  n: number;
  b: string;
}

type QueuedRecord = LogRecord & { maybeDelivered: boolean };

interface Cursor {
  segment: number;
  offset: number;
}

const SEGMENT = /^segment-(\d{8})\.log$/;
const segmentName = (n: number) => `segment-${String(n).padStart(8, '0')}.log`;

export class LocalDurableQueue<M extends object = object> implements DurableQueue<M> {
  private readonly opts: Required<Omit<LocalDurableQueueOptions, 'queueName'>> & { queueName: string };
  private fd = -1;
  private writeSegment = 0;
  private writeBytes = 0;
  /** Segments that existed when the queue opened: their records may have been delivered already. */
  private readonly recovered = new Set<number>();
  private cursor: Cursor = { segment: 1, offset: 0 };
  private pending: { line: string; done: () => void; fail: (e: unknown) => void }[] = [];
  private flushScheduled = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private closed = false;
  private failures = 0;

  constructor(options: LocalDurableQueueOptions) {
    this.opts = {
      maxBatch: 1000,
      batchWindowMs: 200,
      maxReceiveCount: 5,
      retryDelayMs: 1000,
      segmentBytes: 16 * 1024 * 1024,
      queueName: 'reports',
      ...options,
    };
    mkdirSync(this.opts.dir, { recursive: true });
    const segments = this.segments();
    for (const s of segments) this.recovered.add(s);
    const saved = this.readCursor();
    this.cursor = saved ?? { segment: segments[0] ?? 1, offset: 0 };
    // Never append to a file a crash may have cut mid-line: every start writes a new segment.
    this.writeSegment = (segments.at(-1) ?? 0) + 1;
    this.fd = openSync(join(this.opts.dir, segmentName(this.writeSegment)), 'a');
    if (segments.length === 0) this.cursor = { segment: this.writeSegment, offset: 0 };
  }

  /** Starts delivering to the handler. */
  start(): void {
    this.loop ??= this.consume();
  }

  sendAll(messages: readonly M[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The report queue is closed'));
    if (messages.length === 0) return Promise.resolve();
    const t = Date.now();
    const line = messages
      .map(
        (m) => `${JSON.stringify({ id: randomUUID(), t, n: 0, b: JSON.stringify(m) } satisfies LogRecord)}\n`,
      )
      .join('');
    return this.append(line);
  }

  /** Resolves when every record written so far has been handled (or dead-lettered). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.pending.length === 0 && this.caughtUp()) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.flush();
    this.wake?.();
    await this.loop;
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  // --- writing ---------------------------------------------------------------------------------------

  private append(line: string): Promise<void> {
    return new Promise((done, fail) => {
      this.pending.push({ line, done, fail });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Group commit: one write and one fdatasync for every send of this moment. */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    try {
      if (this.writeBytes > this.opts.segmentBytes) this.rotate();
      const data = Buffer.from(batch.map((p) => p.line).join(''));
      let written = 0;
      while (written < data.length) written += writeSync(this.fd, data, written);
      fdatasyncSync(this.fd);
      this.writeBytes += data.length;
      for (const p of batch) p.done();
    } catch (err) {
      for (const p of batch) p.fail(err);
    }
    this.wake?.();
  }

  private rotate(): void {
    closeSync(this.fd);
    this.writeSegment += 1;
    this.writeBytes = 0;
    this.fd = openSync(join(this.opts.dir, segmentName(this.writeSegment)), 'a');
  }

  // --- reading ---------------------------------------------------------------------------------------

  private segments(): number[] {
    return readdirSync(this.opts.dir)
      .map((f) => SEGMENT.exec(f)?.[1])
      .filter((s): s is string => s !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }

  private readCursor(): Cursor | null {
    const file = join(this.opts.dir, 'cursor.json');
    if (!existsSync(file)) return null;
    try {
      const c = JSON.parse(readFileSync(file, 'utf8')) as Cursor;
      return Number.isInteger(c.segment) && Number.isInteger(c.offset) ? c : null;
    } catch {
      return null;
    }
  }

  private saveCursor(c: Cursor): void {
    const file = join(this.opts.dir, 'cursor.json');
    writeFileSync(`${file}.tmp`, JSON.stringify(c));
    renameSync(`${file}.tmp`, file);
    this.cursor = c;
  }

  private caughtUp(): boolean {
    if (this.cursor.segment < this.writeSegment) return false;
    return this.cursor.offset >= this.writeBytes;
  }

  /** Up to maxBatch complete records from the cursor on, and where reading stopped. */
  private readBatch(): { records: QueuedRecord[]; end: Cursor } {
    const records: QueuedRecord[] = [];
    let { segment, offset } = this.cursor;
    for (;;) {
      const path = join(this.opts.dir, segmentName(segment));
      const size = existsSync(path) ? statSync(path).size : 0;
      let cut = false;
      while (offset < size && records.length < this.opts.maxBatch) {
        const read = this.readLines(path, segment, offset, size, records);
        offset += read;
        // Only part of a line is there: being written (current segment) or cut by a crash (old segment).
        if (read === 0) {
          cut = true;
          break;
        }
      }
      if (records.length >= this.opts.maxBatch || segment >= this.writeSegment) break;
      // A line cut at the end of an old segment was never answered: skip it with the rest of the file.
      if (offset < size && !cut) break;
      segment += 1;
      offset = 0;
    }
    return { records, end: { segment, offset } };
  }

  /** Parses the complete lines of one read into `records`; returns the bytes consumed. */
  private readLines(path: string, segment: number, offset: number, size: number, records: QueuedRecord[]) {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(Math.min(size - offset, 4 * 1024 * 1024));
      const n = readSync(fd, buf, 0, buf.length, offset);
      let start = 0;
      for (let i = 0; i < n && records.length < this.opts.maxBatch; i++) {
        if (buf[i] !== 10) continue;
        try {
          const record = JSON.parse(buf.toString('utf8', start, i)) as LogRecord;
          records.push({ ...record, maybeDelivered: this.recovered.has(segment) });
        } catch {
          this.opts.logger.error('unreadable line in the report queue, skipped', { segment });
        }
        start = i + 1;
      }
      if (start === 0 && n === buf.length && n === 4 * 1024 * 1024) {
        throw new Error('A report queue line is longer than 4 MB');
      }
      return start;
    } finally {
      closeSync(fd);
    }
  }

  private deleteConsumedSegments(): void {
    for (const s of this.segments()) {
      if (s < this.cursor.segment) {
        rmSync(join(this.opts.dir, segmentName(s)), { force: true });
        this.recovered.delete(s);
      }
    }
  }

  private async consume(): Promise<void> {
    while (!this.closed || !this.caughtUp()) {
      let { records, end } = this.readBatch();
      if (records.length === 0) {
        if (end.segment !== this.cursor.segment || end.offset !== this.cursor.offset) {
          this.saveCursor(end);
          this.deleteConsumedSegments();
          continue;
        }
        if (this.closed) break;
        await new Promise<void>((r) => {
          this.wake = r;
          setTimeout(r, 1000).unref();
        });
        this.wake = null;
        continue;
      }
      if (records.length < this.opts.maxBatch && !this.closed && this.opts.batchWindowMs > 0) {
        await new Promise((r) => setTimeout(r, this.opts.batchWindowMs));
        ({ records, end } = this.readBatch());
      }
      const outcome = await this.deliver(records);
      if (outcome !== 'stuck') {
        this.saveCursor(end);
        this.deleteConsumedSegments();
      }
      if (outcome === 'done' || outcome === 'partly') {
        this.failures = 0;
        continue;
      }
      if (this.closed) break;
      this.failures += 1;
      const wait = Math.min(30_000, this.opts.retryDelayMs * 2 ** (this.failures - 1));
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /**
   * done: every record handled. requeued: failed records were appended again (or dead-lettered) and the
   * cursor may move; the next try waits when the whole batch failed. stuck: nothing could be re-queued,
   * so the cursor stays and the batch is tried again later.
   */
  private async deliver(records: QueuedRecord[]): Promise<'done' | 'requeued' | 'partly' | 'stuck'> {
    const byId = new Map(records.map((r) => [r.id, r]));
    let failed: string[];
    try {
      const res = await this.opts.handler({ Records: records.map((r) => this.toRecord(r)) });
      failed = (res?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
    } catch (err) {
      this.opts.logger.warn('report batch failed, will be delivered again', errorFields(err));
      failed = records.map((r) => r.id);
    }
    if (failed.length === 0) return 'done';
    const again: string[] = [];
    const dead: string[] = [];
    for (const id of new Set(failed)) {
      const r = byId.get(id);
      if (!r) continue;
      const n = r.n + (r.maybeDelivered ? 2 : 1);
      const line = `${JSON.stringify({ id: r.id, t: r.t, n, b: r.b } satisfies LogRecord)}\n`;
      (n >= this.opts.maxReceiveCount ? dead : again).push(line);
    }
    try {
      if (dead.length > 0) {
        const fd = openSync(join(this.opts.dir, 'dead-letter.jsonl'), 'a');
        try {
          writeSync(fd, dead.join(''));
          fdatasyncSync(fd);
        } finally {
          closeSync(fd);
        }
        this.opts.logger.error('report messages moved to the dead-letter file', { count: dead.length });
      }
      if (again.length > 0) await this.append(again.join(''));
    } catch (err) {
      this.opts.logger.error('could not re-queue failed report messages', errorFields(err));
      return 'stuck';
    }
    return failed.length < records.length ? 'partly' : 'requeued';
  }

  private toRecord(r: QueuedRecord): SQSRecord {
    return {
      messageId: r.id,
      receiptHandle: r.id,
      body: r.b,
      attributes: {
        ApproximateReceiveCount: String(r.n + (r.maybeDelivered ? 2 : 1)),
        SentTimestamp: String(r.t),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${this.opts.queueName}`,
      awsRegion: 'local',
    };
  }
}
