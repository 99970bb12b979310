// A domain's schedule (shared/src/watch/schedule.ts says when it runs) and the history of its due times.
// The dispatcher (functions/src/watch/dispatch.ts) finds due schedules with one Query of their index
// partition and claims each due time with a conditional write, so two dispatchers never both act on one.
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type ScheduleRun, scheduleRunSchema } from '@csp/shared/schemas/schedule';
import { scheduleSchema } from '@csp/shared/watch/schedule';
import * as z from 'zod';
import { storedCrawlRequestSchema } from './analyses';
import { batchDelete } from './batch';
import { type Db, isConditionFailure, nowIso } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import {
  SCHEDULES_DUE_PARTITION,
  scheduleDueIndexes,
  scheduleDueSortKey,
  scheduleKey,
  schedulePartition,
  scheduleRunKey,
  scheduleRunPrefix,
} from './keys';
import { queryItems, queryTable } from './query';

const scheduleRecordSchema = z.object({
  domainId: z.string(),
  /** The domain's owner: the runs start as theirs, within their limits. */
  userId: z.string(),
  schedule: scheduleSchema,
  crawlRequest: storedCrawlRequestSchema,
  /** The report endpoint of the owner's request that saved it (the dispatcher has no request of its own). */
  reportUri: z.string().nullable(),
  /** Epoch ms; null when off. */
  nextRunAt: z.number().nullable(),
  updatedAt: z.string(),
});
export type ScheduleRecord = z.infer<typeof scheduleRecordSchema>;
const scheduleFromItem = itemReader(scheduleRecordSchema);
const runFromItem = itemReader(scheduleRunSchema);

export async function getSchedule(db: Db, domainId: string): Promise<ScheduleRecord | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: scheduleKey(domainId) }));
  return res.Item ? scheduleFromItem(res.Item) : null;
}

/** Saves (replaces) a domain's schedule; in the due index only while it has a next run. */
export async function putSchedule(db: Db, input: Omit<ScheduleRecord, 'updatedAt'>): Promise<ScheduleRecord> {
  const record: ScheduleRecord = { ...input, updatedAt: nowIso() };
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        ...scheduleKey(input.domainId),
        ...(record.nextRunAt !== null ? scheduleDueIndexes(record.nextRunAt, input.domainId) : {}),
        ...record,
      },
    }),
  );
  return record;
}

/** Schedules whose next run is at or before `now`, soonest first (one Query, page by page). */
export async function dueSchedules(db: Db, now: number, limit = 500): Promise<ScheduleRecord[]> {
  const items = await queryItems(db, {
    index: 'gsi3',
    // '#' sorts before every id character and '~' after: every domain due at `now` is included.
    condition: 'gsi3pk = :p AND gsi3sk <= :due',
    values: { ':p': SCHEDULES_DUE_PARTITION, ':due': `${scheduleDueSortKey(now, '')}~` },
    limit,
  });
  return items.map(scheduleFromItem);
}

/**
 * Moves a schedule from the due time it was read with to `next`, only if no one moved it since (another
 * dispatcher, or the owner saving it again). True: this caller owns that due time and acts on it.
 */
export async function claimDueTime(db: Db, s: ScheduleRecord, next: number | null): Promise<boolean> {
  const index = next !== null ? scheduleDueIndexes(next, s.domainId) : null;
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: scheduleKey(s.domainId),
        UpdateExpression: index
          ? 'SET nextRunAt = :next, gsi3pk = :gp, gsi3sk = :gs'
          : 'SET nextRunAt = :next REMOVE gsi3pk, gsi3sk',
        ConditionExpression: 'nextRunAt = :due',
        ExpressionAttributeValues: {
          ':next': next,
          ':due': s.nextRunAt,
          ...(index ? { ':gp': index.gsi3pk, ':gs': index.gsi3sk } : {}),
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Appends what a due time did to the schedule's history (never changed afterwards). */
export async function recordScheduleRun(
  db: Db,
  domainId: string,
  run: Omit<ScheduleRun, 'id' | 'at'>,
  at = Date.now(),
): Promise<ScheduleRun> {
  const item: ScheduleRun = { id: newId(at), at: new Date(at).toISOString(), ...run };
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...scheduleRunKey(domainId, item.id), ...item },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return item;
}

/** The schedule's history, newest first. */
export async function listScheduleRuns(db: Db, domainId: string, limit = 50): Promise<ScheduleRun[]> {
  const { pk, skPrefix } = scheduleRunPrefix(domainId);
  const items = await queryItems(db, {
    condition: 'pk = :p AND begins_with(sk, :s)',
    values: { ':p': pk, ':s': skPrefix },
    newestFirst: true,
    limit,
  });
  return items.map(runFromItem);
}

/** A deleted domain's schedule and its history (one partition). */
export async function deleteSchedule(db: Db, domainId: string): Promise<void> {
  await batchDelete(db, await queryTable(db, schedulePartition(domainId)));
}
