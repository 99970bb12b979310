// A user's crawl quota, so one tenant cannot fill the crawl queue or the crawler's day:
// - waiting analyses (created, not crawling yet): one item per user whose `waiting` map holds analysis id →
//   entry expiry (epoch ms). An analysis enters it in the transaction that creates it, on the condition that
//   the map holds fewer than CRAWL_LIMITS.waitingAnalysesPerUser entries (size() counts a map's entries, so
//   the check and the add are one atomic write: parallel starts cannot both take the last place). It leaves
//   when it starts crawling, fails, completes or is deleted (analyses.ts and run-slots.ts call
//   releaseWaiting). Self-healing: an entry left by a crash expires, and a refused start first drops the
//   entries of analyses that are finished or gone, then tries once more.
// - pages per UTC day: a counter item per user and day. A start reserves its maxPages (the most its crawl
//   can visit) with a conditional ADD in the same transaction; the end of the analysis gives back what the
//   crawl did not use. The counter expires two days after its day.
import { BatchGetCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import * as z from 'zod';
import { conflictBackoff, type Db, epochSeconds, isTransactionConflict } from './db';
import { itemReader } from './items';
import { analysisKey, dailyPagesKey, waitingAnalysesKey } from './keys';

export const MAX_WAITING_ANALYSES = CRAWL_LIMITS.waitingAnalysesPerUser;
export const WAITING_LIMIT_MESSAGE = `You already have ${MAX_WAITING_ANALYSES} analyses waiting; wait for some to finish`;
/** An entry nobody released (a crash between two writes) stops counting after this. */
const WAITING_ENTRY_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Runs a single-item write again when it met a start's transaction on the same item (DynamoDB refuses a
 * write to an item a transaction is changing with TransactionConflictException).
 */
async function retryOnConflict<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!isTransactionConflict(err) || attempt >= 8) throw err;
      await conflictBackoff(attempt);
    }
  }
}

/** The UTC day a reservation is counted on (YYYY-MM-DD). */
export const budgetDay = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);
/** When the budget of `now`'s day starts again: the next 00:00 UTC. */
export const budgetResetsAt = (now = Date.now()) => new Date((Math.floor(now / DAY_MS) + 1) * DAY_MS);

/**
 * Makes sure the user's waiting item has its map: an update cannot set `waiting.#id` on a map that does not
 * exist, so the transaction that adds an entry needs it there first. Idempotent.
 */
export async function ensureWaitingItem(db: Db, userId: string, now = Date.now()): Promise<void> {
  await retryOnConflict(() =>
    db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: waitingAnalysesKey(userId),
        UpdateExpression: 'SET waiting = if_not_exists(waiting, :empty), expiresAt = :ttl',
        ExpressionAttributeValues: { ':empty': {}, ':ttl': epochSeconds(now + WAITING_ENTRY_MS) + 3600 },
      }),
    ),
  );
}

/** The transaction item that adds the analysis to the user's waiting ones, if fewer than the limit wait. */
export function waitingEntryUpdate(db: Db, userId: string, analysisId: string, now = Date.now()) {
  return {
    Update: {
      TableName: db.table,
      Key: waitingAnalysesKey(userId),
      ConditionExpression: 'size(waiting) < :max',
      UpdateExpression: 'SET waiting.#id = :until, expiresAt = :ttl',
      ExpressionAttributeNames: { '#id': analysisId },
      ExpressionAttributeValues: {
        ':max': MAX_WAITING_ANALYSES,
        ':until': now + WAITING_ENTRY_MS,
        // The item outlives its newest entry; TTL then removes it.
        ':ttl': epochSeconds(now + WAITING_ENTRY_MS) + 3600,
      },
    },
  };
}

/** The transaction item that reserves `pages` of the user's day, if they fit in `dailyPages`. */
export function pageReservationUpdate(
  db: Db,
  userId: string,
  pages: number,
  dailyPages: number,
  now = Date.now(),
) {
  const day = budgetDay(now);
  return {
    Update: {
      TableName: db.table,
      Key: dailyPagesKey(userId, day),
      ConditionExpression: 'attribute_not_exists(pagesReserved) OR pagesReserved <= :room',
      UpdateExpression: 'ADD pagesReserved :pages SET expiresAt = :ttl',
      ExpressionAttributeValues: {
        ':pages': pages,
        ':room': dailyPages - pages,
        ':ttl': epochSeconds(budgetResetsAt(now).getTime() + DAY_MS),
      },
    },
  };
}

/** The analysis no longer waits (it crawls, or it ended). Idempotent. */
export async function releaseWaiting(db: Db, userId: string, analysisId: string): Promise<void> {
  await db.doc
    .send(
      new UpdateCommand({
        TableName: db.table,
        Key: waitingAnalysesKey(userId),
        ConditionExpression: 'attribute_exists(waiting)',
        UpdateExpression: 'REMOVE waiting.#id',
        ExpressionAttributeNames: { '#id': analysisId },
      }),
    )
    .catch((err: unknown) => {
      // No item: nothing waits (it expired), so there is nothing to release.
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    });
}

/** Gives back pages a crawl reserved on `day` and did not use. */
export async function refundPages(db: Db, userId: string, day: string, pages: number): Promise<void> {
  if (!(pages > 0)) return;
  await db.doc
    .send(
      new UpdateCommand({
        TableName: db.table,
        Key: dailyPagesKey(userId, day),
        // A counter that expired has nothing to give back to (and must not be recreated negative).
        ConditionExpression: 'pagesReserved >= :pages',
        UpdateExpression: 'ADD pagesReserved :minus',
        ExpressionAttributeValues: { ':pages': pages, ':minus': -pages },
      }),
    )
    .catch((err: unknown) => {
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    });
}

/** The day's page counter and the waiting map, as stored (an item exists once something was counted). */
const dailyPagesFromItem = itemReader(z.object({ pagesReserved: z.number().default(0) }));
const waitingFromItem = itemReader(z.object({ waiting: z.record(z.string(), z.number()).default({}) }));

/** Pages the user's analyses reserved today. */
export async function pagesReservedToday(db: Db, userId: string, now = Date.now()): Promise<number> {
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: dailyPagesKey(userId, budgetDay(now)), ConsistentRead: true }),
  );
  return res.Item ? dailyPagesFromItem(res.Item).pagesReserved : 0;
}

async function readWaiting(db: Db, userId: string): Promise<Record<string, number>> {
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: waitingAnalysesKey(userId), ConsistentRead: true }),
  );
  return res.Item ? waitingFromItem(res.Item).waiting : {};
}

/** The ids of the user's waiting analyses, oldest first (ids sort by creation time). */
export async function waitingAnalysisIds(db: Db, userId: string, now = Date.now()): Promise<string[]> {
  const waiting = await readWaiting(db, userId);
  return Object.keys(waiting)
    .filter((id) => (waiting[id] ?? 0) > now)
    .sort();
}

/**
 * Drops the entries that no longer stand for a waiting analysis: expired ones, and those of analyses that
 * are completed, failed or deleted (a release lost to a crash). An analysis that is running keeps its entry
 * until it ends: it may go back to waiting for a slot. Returns how many were dropped.
 */
export async function reconcileWaiting(db: Db, userId: string, now = Date.now()): Promise<number> {
  const waiting = await readWaiting(db, userId);
  const ids = Object.keys(waiting);
  if (ids.length === 0) return 0;
  const res = await db.doc.send(
    new BatchGetCommand({
      RequestItems: {
        [db.table]: {
          Keys: ids.map(analysisKey),
          ProjectionExpression: 'id, #s',
          ExpressionAttributeNames: { '#s': 'status' },
          ConsistentRead: true,
        },
      },
    }),
  );
  // Keys the batch did not get to count as alive: never drop an entry on a read we did not make.
  const unread = new Set(
    (res.UnprocessedKeys?.[db.table]?.Keys ?? []).map((k) =>
      String(k.pk).slice(String(k.pk).indexOf('#') + 1),
    ),
  );
  const status = new Map((res.Responses?.[db.table] ?? []).map((i) => [i.id as string, i.status as string]));
  const stale = ids.filter((id) => {
    if ((waiting[id] ?? 0) <= now) return true;
    if (unread.has(id)) return false;
    const s = status.get(id);
    return s === undefined || s === 'completed' || s === 'failed';
  });
  for (const id of stale) await releaseWaiting(db, userId, id);
  return stale.length;
}
