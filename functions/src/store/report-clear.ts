// Clearing a domain's reports in the background: a flood can leave hundreds of thousands of items, so no
// request deletes them all. The job item (keys.ts reportClearKey) holds where the deletion is — which
// partition, the last key read there — and how many items are gone. Whoever holds its lease advances it a
// bounded step at a time: the API right after accepting the clear (locally the process runs it to the end),
// and every poll of the panel while it is running, so in AWS a step frozen with its Lambda is taken over
// once its lease runs out.
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { ReportClearJob } from '@csp/shared/schemas/report';
import { errorFields, type Logger } from '../logger';
import { batchDelete } from './batch';
import { type Db, epochSeconds, isConditionFailure } from './db';
import {
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
 * A step's holder has this long, renewed after each page; a step stops well before (budgetMs). In AWS the
 * step the API starts after its 202 is frozen with its Lambda: the panel's polls take over once this runs
 * out.
 */
const LEASE_MS = 10_000;
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

interface JobItem {
  state: 'running' | 'done';
  /** Index into partitions(); the last key read there (a query's LastEvaluatedKey). */
  partitionAt: number;
  resumeKey?: Record<string, unknown> | null;
  deleted: number;
  startedAt: string;
  finishedAt?: string | null;
  leaseUntil?: number;
}

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

export async function getReportClear(db: Db, domainId: string): Promise<ReportClearJob | null> {
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: reportClearKey(domainId), ConsistentRead: true }),
  );
  return res.Item ? view(domainId, res.Item as JobItem) : null;
}

/** Starts clearing a domain's reports; a clear already running is answered instead of a second one. */
export async function startReportClear(db: Db, domainId: string): Promise<ReportClearJob> {
  const item: JobItem = {
    state: 'running',
    partitionAt: 0,
    resumeKey: null,
    deleted: 0,
    startedAt: new Date().toISOString(),
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
    return view(domainId, item);
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const running = await getReportClear(db, domainId);
    if (!running) return startReportClear(db, domainId);
    return running;
  }
}

/** Takes the lease of a running job; null when it is done or someone else holds it. */
async function takeLease(db: Db, domainId: string): Promise<JobItem | null> {
  const now = Date.now();
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: reportClearKey(domainId),
        UpdateExpression: 'SET leaseUntil = :until',
        ConditionExpression: '#state = :running AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':until': now + LEASE_MS, ':running': 'running', ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes as JobItem;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/**
 * Deletes for about `budgetMs` (a page at a time, progress saved after each), then lets go of the job.
 * 'busy': someone else holds it.
 */
export async function advanceReportClear(
  db: Db,
  domainId: string,
  budgetMs: number,
): Promise<'more' | 'busy' | 'done'> {
  const job = await takeLease(db, domainId);
  if (!job) return (await getReportClear(db, domainId))?.state === 'running' ? 'busy' : 'done';
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

/** Runs a clear to its end in steps (locally the process lives on; in AWS the polls finish what is left). */
export async function runReportClear(db: Db, domainId: string, logger: Logger): Promise<void> {
  try {
    for (;;) {
      const state = await advanceReportClear(db, domainId, 2000);
      if (state === 'done') return;
      // A poll holds the step: it lets go of it within a second.
      if (state === 'busy') await new Promise((r) => setTimeout(r, 500));
    }
  } catch (err) {
    logger.error('clearing reports failed; the next poll resumes it', { domainId, ...errorFields(err) });
  }
}
