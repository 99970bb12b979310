// A domain's watched runs (issue: changes between runs): one item per completed analysis of the domain, with
// its snapshot (what the run saw, packed) and, from the second run on, what changed since the run before and
// the drift from the domain's saved configuration (packed), plus the counts the timeline lists. Written once
// by the crawl writer (a condition refuses a second write: the change log is append-only) and read by the API.
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { byCodeUnits } from '@csp/shared/text/order';
import type { RunSnapshot } from '@csp/shared/watch/snapshot';
import * as z from 'zod';
import {
  packChanges,
  packSnapshot,
  type StoredChanges,
  unpackChanges,
  unpackSnapshot,
} from '../watch/snapshot-pack';
import { type Db, isConditionFailure } from './db';
import { idFloor } from './ids';
import { itemReader } from './items';
import { watchRunKey, watchRunsPartition } from './keys';

export const watchCountsSchema = z.object({
  scriptsAdded: z.number().int(),
  scriptsChanged: z.number().int(),
  scriptsRemoved: z.number().int(),
  /** Directives whose allowed origins came or went. */
  originChanges: z.number().int(),
  policyChanges: z.number().int(),
  headerChanges: z.number().int(),
  drift: z.enum(['matches', 'differs', 'none-served']).nullable(),
});
export type WatchCounts = z.infer<typeof watchCountsSchema>;

const binary = z.custom<Uint8Array>((v) => v instanceof Uint8Array);
const summarySchema = z.object({
  analysisId: z.string(),
  domainId: z.string(),
  completedAt: z.string(),
  /** The run this one was compared with (null: the domain's first watched run, nothing to compare). */
  previousAnalysisId: z.string().nullable(),
  counts: watchCountsSchema,
});
const readSummary = itemReader(summarySchema.extend({ changes: binary }));
const readSnapshotItem = itemReader(z.object({ snapshot: binary }));

export type WatchRunSummary = z.infer<typeof summarySchema>;
export type WatchRun = WatchRunSummary & StoredChanges;

/** Stores a run once; false when it is stored already (a redelivered completion changes nothing). */
export async function putWatchRun(
  db: Db,
  run: WatchRunSummary & { snapshot: RunSnapshot } & Omit<StoredChanges, 'truncated'>,
): Promise<boolean> {
  const { snapshot, changes, drift, ...summary } = run;
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...watchRunKey(run.domainId, run.analysisId),
          ...summary,
          snapshot: packSnapshot(snapshot),
          changes: packChanges({ changes, drift }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The snapshot of the domain's latest watched run before `analysisId`, or null. */
export async function previousSnapshot(
  db: Db,
  domainId: string,
  analysisId: string,
): Promise<RunSnapshot | null> {
  const res = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      KeyConditionExpression: 'pk = :p AND sk < :s',
      ExpressionAttributeValues: {
        ':p': watchRunsPartition(domainId),
        ':s': watchRunKey(domainId, analysisId).sk,
      },
      ScanIndexForward: false,
      Limit: 1,
      ProjectionExpression: 'pk, sk, #snapshot',
      ExpressionAttributeNames: { '#snapshot': 'snapshot' },
    }),
  );
  const item = res.Items?.[0];
  return item ? unpackSnapshot(readSnapshotItem(item).snapshot) : null;
}

function toRun(item: Record<string, unknown>): WatchRun {
  const { changes, ...summary } = readSummary(item);
  return { ...summary, ...(unpackChanges(changes) ?? { changes: null, drift: null, truncated: false }) };
}

// Everything but the snapshot, under names (several of them are DynamoDB reserved words).
const LISTED_FIELDS = ['analysisId', 'domainId', 'completedAt', 'previousAnalysisId', 'counts', 'changes'];
const LISTED = {
  ProjectionExpression: ['pk', 'sk', ...LISTED_FIELDS.map((f) => `#${f}`)].join(', '),
  ExpressionAttributeNames: Object.fromEntries(LISTED_FIELDS.map((f) => [`#${f}`, f])),
};

export async function getWatchRun(db: Db, domainId: string, analysisId: string): Promise<WatchRun | null> {
  const res = await db.doc.send(
    new GetCommand({
      TableName: db.table,
      Key: watchRunKey(domainId, analysisId),
      ...LISTED,
    }),
  );
  return res.Item ? toRun(res.Item) : null;
}

/**
 * The domain's compared runs, newest first, a page at a time: `before` is the last analysis id of the page
 * before (the runs listed after it are older). The first watched run, with nothing to compare, is not listed.
 */
export async function listWatchRuns(
  db: Db,
  domainId: string,
  page: { limit: number; before?: string },
): Promise<{ runs: WatchRun[]; next: string | null }> {
  const runs: WatchRun[] = [];
  let start: Record<string, unknown> | undefined;
  const partition = watchRunsPartition(domainId);
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: page.before ? 'pk = :p AND sk < :s' : 'pk = :p',
        ExpressionAttributeValues: {
          ':p': partition,
          ...(page.before ? { ':s': watchRunKey(domainId, page.before).sk } : {}),
        },
        ScanIndexForward: false,
        Limit: page.limit + 1 - runs.length,
        ...LISTED,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      const run = toRun(item);
      if (run.previousAnalysisId !== null) runs.push(run);
    }
    start = res.LastEvaluatedKey;
  } while (start && runs.length <= page.limit);
  const more = runs.length > page.limit;
  const listed = runs.slice(0, page.limit);
  return { runs: listed, next: more ? (listed.at(-1)?.analysisId ?? null) : null };
}

/** How long before its completion a run's analysis may have been created (its id carries the creation time). */
const RUN_STARTED_BEFORE_MS = 2 * 86_400_000;

/**
 * The domain's watched runs that completed in a period (ISO instants, inclusive), first runs included, oldest
 * first, at most `limit` (and whether there were more). A key range: analysis ids begin with their creation
 * time, so only the period's runs (and those started up to two days before it) are read; their snapshots
 * are not.
 */
export async function listWatchRunsBetween(
  db: Db,
  domainId: string,
  period: { from: string; to: string },
  limit: number,
): Promise<{ runs: WatchRun[]; more: boolean }> {
  const runs: WatchRun[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
        FilterExpression: '#completedAt BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':p': watchRunsPartition(domainId),
          ':a': watchRunKey(domainId, idFloor(Date.parse(period.from) - RUN_STARTED_BEFORE_MS)).sk,
          ':b': watchRunKey(domainId, idFloor(Date.parse(period.to) + 1)).sk,
          ':from': period.from,
          ':to': period.to,
        },
        ...LISTED,
        ExclusiveStartKey: start,
      }),
    );
    runs.push(...(res.Items ?? []).map(toRun));
    start = res.LastEvaluatedKey;
  } while (start && runs.length <= limit);
  const listed = runs.slice(0, limit).sort((a, b) => byCodeUnits(a.completedAt, b.completedAt));
  return { runs: listed, more: runs.length > limit };
}
