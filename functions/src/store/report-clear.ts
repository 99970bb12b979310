// Clearing a domain's reports in the background: a flood can leave hundreds of thousands of items, so no
// request deletes them all. The job item (keys.ts reportClearKey) holds where the deletion is — which
// partition, the last key read there — and how many items are gone. The API accepts a clear (the owner's
// "Clear All", or the deletion of the domain or its owner) by writing the job and sending a clear message on
// the report queue; the report consumer advances the job for config.REPORT_CLEAR_STEP_MS per message and,
// while it is not done, sends the message again for the next invocation. Whoever holds the job's lease
// advances it, so two never delete the same page at once: the consumer, and — only when no clear message
// has worked on the job for a while (a chain of messages that broke: a re-send that failed, a message
// dead-lettered) — each poll of the panel, for a second. The job of a domain that no longer exists (deleted
// alone or with its owner) deletes its own item when it is done.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { ReportClearJob, ReportClearMessage } from '@csp/shared/schemas/report';
import * as z from 'zod';
import { AppError } from '../errors';
import { errorFields, type Logger } from '../logger';
import type { DurableQueue } from '../queue/queue';
import { batchDelete } from './batch';
import { type Db, epochSeconds, isConditionFailure } from './db';
import { itemReader } from './items';
import {
  domainKey,
  domainReportsPartition,
  reportClearKey,
  reportCountPartition,
  reportGuardPartition,
  reportPolicyPartition,
  reportStatsPartition,
  suspiciousSeenPartition,
} from './keys';

/** Keys read and deleted per page. */
const PAGE = 500;
/**
 * A step's holder has this long, renewed after each page; a step stops well before (budgetMs). A step whose
 * process died (a consumer Lambda that timed out) is taken over once this runs out.
 */
const LEASE_MS = 10_000;
/**
 * A running job no clear message worked on for this long has lost its chain of messages (or the chain waits
 * behind a backlog of reports): the panel's polls advance it themselves. Until then they only read, so a
 * poll answers at once.
 */
const CHAIN_QUIET_MS = 10_000;
/**
 * After this long without a clear message working on it, a new request to clear (the owner clicking again,
 * deleting the domain) sends a message again. Sooner, a second chain would mostly wait for the first's lease.
 */
const STALLED_MS = 60_000;
/** A finished job is shown for a day, then expires. */
const DONE_TTL_SECONDS = 24 * 3600;

interface Partition {
  phase: 'reports' | 'counts';
  pk: string;
  index?: 'gsi2';
}

/** Everything a domain's reports left, in order: the stored reports first (what the owner sees), counts last. */
function partitions(domainId: string): Partition[] {
  return [
    { phase: 'reports', pk: domainReportsPartition(domainId), index: 'gsi2' },
    { phase: 'reports', pk: reportPolicyPartition(domainId) },
    ...Array.from({ length: REPORT_LIMITS.counterShards }, (_, s) => ({
      phase: 'counts' as const,
      pk: reportCountPartition(domainId, s),
    })),
    { phase: 'counts', pk: reportStatsPartition(domainId) },
    // The redelivery guards and the watch's items expire on their own, but a clear leaves nothing behind.
    { phase: 'counts', pk: reportGuardPartition(domainId) },
    { phase: 'counts', pk: suspiciousSeenPartition(domainId) },
  ];
}

/** Where the API and the consumer send clear messages: the report queue. */
export type ReportClearQueue = DurableQueue<ReportClearMessage>;

const jobItemSchema = z.object({
  /** Which clearing this is: a message of an earlier, finished one does nothing to it. */
  jobId: z.string(),
  state: z.enum(['running', 'done']),
  /** Index into partitions(); the last key read there (a query's LastEvaluatedKey). */
  partitionAt: z.number(),
  resumeKey: z.record(z.string(), z.unknown()).nullable().optional(),
  deleted: z.number(),
  startedAt: z.string(),
  finishedAt: z.string().nullable().optional(),
  leaseUntil: z.number().optional(),
  /** When a clear message was last sent for the job or took its lease (ms). */
  chainAt: z.number(),
});
type JobItem = z.infer<typeof jobItemSchema>;
const jobFromItem = itemReader(jobItemSchema);

function view(domainId: string, item: JobItem): ReportClearJob {
  const list = partitions(domainId);
  return {
    state: item.state,
    phase: item.state === 'done' ? 'done' : (list[item.partitionAt]?.phase ?? 'counts'),
    deleted: item.deleted,
    startedAt: item.startedAt,
    finishedAt: item.finishedAt ?? null,
  };
}

async function getJob(db: Db, domainId: string): Promise<JobItem | null> {
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: reportClearKey(domainId), ConsistentRead: true }),
  );
  return res.Item ? jobFromItem(res.Item) : null;
}

export async function getReportClear(db: Db, domainId: string): Promise<ReportClearJob | null> {
  const item = await getJob(db, domainId);
  return item ? view(domainId, item) : null;
}

/** Writes a new job; a job already running is answered instead of a second one (created: false). */
async function startJob(db: Db, domainId: string): Promise<{ item: JobItem; created: boolean }> {
  const item: JobItem = {
    jobId: randomUUID(),
    state: 'running',
    partitionAt: 0,
    resumeKey: null,
    deleted: 0,
    startedAt: new Date().toISOString(),
    chainAt: Date.now(),
  };
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...reportClearKey(domainId), ...item },
        ConditionExpression: 'attribute_not_exists(pk) OR #state = :done',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'done' },
      }),
    );
    return { item, created: true };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const running = await getJob(db, domainId);
    if (!running || running.state === 'done') return startJob(db, domainId);
    return { item: running, created: false };
  }
}

export interface ReportClearDeps {
  db: Db;
  reportQueue: ReportClearQueue;
  logger: Logger;
}

/**
 * Starts clearing a domain's reports in the background: writes the job and sends its message. When the
 * message cannot be sent, the new job is taken back and the caller gets a 503: nothing was changed, and
 * the owner may try again. A clear already running is answered as it is; one that stalled (no clear message
 * for STALLED_MS) gets a new message (503 if that cannot be sent).
 */
export async function requestReportClear(
  { db, reportQueue, logger }: ReportClearDeps,
  domainId: string,
): Promise<ReportClearJob> {
  const { item, created } = await startJob(db, domainId);
  const stalled =
    !created && Date.now() - (item.chainAt ?? 0) > STALLED_MS && (item.leaseUntil ?? 0) < Date.now();
  if (!created && !stalled) return view(domainId, item);
  try {
    await reportQueue.sendAll([{ kind: 'clear', domainId, jobId: item.jobId }]);
  } catch (err) {
    logger.error('could not send a clear message', { domainId, ...errorFields(err) });
    // A stalled job stays as it was (a deleted domain's would have nobody to resume it: the caller stops).
    if (!created) throw cannotStart();
    const undone = await db.doc
      .send(
        new DeleteCommand({
          TableName: db.table,
          Key: reportClearKey(domainId),
          ConditionExpression: 'jobId = :id AND deleted = :zero',
          ExpressionAttributeValues: { ':id': item.jobId, ':zero': 0 },
        }),
      )
      .then(() => true)
      .catch((e: unknown) => {
        if (isConditionFailure(e)) return false;
        throw e;
      });
    // A poll took it up meanwhile: it is under way, and the polls finish it.
    if (!undone) return (await getReportClear(db, domainId)) ?? view(domainId, item);
    throw cannotStart();
  }
  if (stalled) {
    // The new chain is alive: another request within STALLED_MS does not start a third.
    await db.doc
      .send(
        new UpdateCommand({
          TableName: db.table,
          Key: reportClearKey(domainId),
          UpdateExpression: 'SET chainAt = :now',
          ConditionExpression: 'jobId = :id',
          ExpressionAttributeValues: { ':now': Date.now(), ':id': item.jobId },
        }),
      )
      .catch((e: unknown) => {
        if (!isConditionFailure(e)) throw e;
      });
  }
  return view(domainId, item);
}

const cannotStart = () =>
  new AppError(503, 'Clearing the reports could not be started; nothing was deleted. Try again.');

/** Takes the lease of a running job; null when it is done or someone else holds it. */
async function takeLease(db: Db, domainId: string, jobId?: string): Promise<JobItem | null> {
  const now = Date.now();
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: reportClearKey(domainId),
        // A clear message taking the lease shows the chain is alive (pollReportClear).
        UpdateExpression: `SET leaseUntil = :until${jobId ? ', chainAt = :now' : ''}`,
        ConditionExpression: `#state = :running AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)${
          jobId ? ' AND jobId = :job' : ''
        }`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':until': now + LEASE_MS,
          ':running': 'running',
          ':now': now,
          ...(jobId ? { ':job': jobId } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return jobFromItem(res.Attributes ?? {});
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/**
 * Deletes for about `budgetMs` (a page at a time, progress saved after each), then lets go of the job.
 * 'busy': someone else holds it. With a jobId (a clear message), a job other than that one is 'done' for it.
 */
export async function advanceReportClear(
  db: Db,
  domainId: string,
  budgetMs: number,
  jobId?: string,
): Promise<'more' | 'busy' | 'done'> {
  const job = await takeLease(db, domainId, jobId);
  if (!job) {
    const now = await getJob(db, domainId);
    return now?.state === 'running' && (!jobId || now.jobId === jobId) ? 'busy' : 'done';
  }
  const deadline = Date.now() + budgetMs;
  const list = partitions(domainId);
  let { partitionAt: at, deleted } = job;
  let cursor = job.resumeKey ?? undefined;
  const save = (expression: string, values: Record<string, unknown>) =>
    db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: reportClearKey(domainId),
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
      }),
    );
  while (at < list.length && Date.now() < deadline) {
    const p = list[at]!;
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        ...(p.index ? { IndexName: p.index } : {}),
        KeyConditionExpression: `${p.index ? `${p.index}pk` : 'pk'} = :p`,
        ExpressionAttributeValues: { ':p': p.pk },
        ProjectionExpression: 'pk, sk',
        Limit: PAGE,
        ExclusiveStartKey: cursor,
      }),
    );
    const keys = (res.Items ?? []) as { pk: string; sk: string }[];
    await batchDelete(db, keys);
    deleted += keys.length;
    cursor = res.LastEvaluatedKey;
    if (!cursor) at += 1;
    await save('SET partitionAt = :at, resumeKey = :cursor, deleted = :deleted, leaseUntil = :until', {
      ':at': at,
      ':cursor': cursor ?? null,
      ':deleted': deleted,
      ':until': Date.now() + LEASE_MS,
    }).catch(() => undefined);
  }
  if (at < list.length) {
    await save('SET leaseUntil = :zero', { ':zero': 0 });
    return 'more';
  }
  // The clearing of a deleted domain (or of its owner) leaves nothing behind: no panel will show it.
  const domain = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: domainKey(domainId), ProjectionExpression: 'pk' }),
  );
  if (!domain.Item) {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: reportClearKey(domainId) }));
    return 'done';
  }
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: reportClearKey(domainId),
      UpdateExpression: 'SET #state = :done, finishedAt = :now, expiresAt = :e REMOVE leaseUntil, resumeKey',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':done': 'done',
        ':now': new Date().toISOString(),
        ':e': epochSeconds() + DONE_TTL_SECONDS,
      },
    }),
  );
  return 'done';
}

/**
 * The job as the panel polls it. The consumer does the work; when no clear message worked on the job for
 * CHAIN_QUIET_MS (a re-send that failed, a dead-lettered message, a backlog of reports ahead of it), the poll
 * advances it for a second itself, so the clearing still finishes while the owner watches.
 */
export async function pollReportClear(db: Db, domainId: string): Promise<ReportClearJob | null> {
  const job = await getJob(db, domainId);
  if (job?.state !== 'running' || Date.now() - (job.chainAt ?? 0) <= CHAIN_QUIET_MS) {
    return job ? view(domainId, job) : null;
  }
  await advanceReportClear(db, domainId, 1000);
  return getReportClear(db, domainId);
}

/**
 * What the report consumer does with a clear message: advances its job for about `budgetMs` (waiting for
 * the lease while a poll holds it), then, if the job is not done, sends the message again so the next
 * invocation goes on. A message is never failed to get it delivered again: that would count towards the
 * queue's dead-letter limit. 'continued': sent again; 'done': finished, or the message's job is over.
 */
export async function runReportClearMessage(
  db: Db,
  queue: ReportClearQueue,
  message: ReportClearMessage,
  budgetMs: number,
): Promise<'done' | 'continued'> {
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const state = await advanceReportClear(db, message.domainId, left, message.jobId);
    if (state === 'done') return 'done';
    // Held by a poll (for a second at most) or by a duplicate delivery's step: wait for the lease.
    if (state === 'busy') await new Promise((r) => setTimeout(r, Math.min(500, Math.max(0, left))));
  }
  await queue.sendAll([message]);
  return 'continued';
}
