// A user's run slots: at most CRAWL_LIMITS.runningAnalysesPerUser analyses of one user crawl at once; the
// others wait, queued. One item per user holds the holders (analysis id → lease end, epoch ms) and a
// version. Taking a slot reads the item, drops lapsed leases (a crashed run must not hold a slot forever),
// and writes it back on the condition that the version did not move: concurrent runs in other Lambdas
// cannot both take the last slot. A conflict is retried with the fresh item.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import * as z from 'zod';
import { releaseWaiting } from './crawl-quota';
import { type Db, epochSeconds, isConditionFailure } from './db';
import { itemReader } from './items';
import { runSlotsKey } from './keys';

export const MAX_RUNNING_ANALYSES_PER_USER = CRAWL_LIMITS.runningAnalysesPerUser;
const MAX_TRIES = 8;
/** The item outlives its last lease by a day, then TTL removes it. */
const TTL_AFTER_LEASE_S = 24 * 60 * 60;

const slotsItemSchema = z.object({
  holders: z.record(z.string(), z.number()),
  version: z.number(),
});
type SlotsItem = z.infer<typeof slotsItemSchema>;
const slotsFromItem = itemReader(slotsItemSchema);

async function readSlots(db: Db, userId: string): Promise<SlotsItem> {
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: runSlotsKey(userId), ConsistentRead: true }),
  );
  // A user who never ran an analysis has no item yet: no holders, version 0.
  return res.Item ? slotsFromItem(res.Item) : { holders: {}, version: 0 };
}

/** Writes `holders` if the item is still at `version`; false when another writer came first. */
async function writeSlots(
  db: Db,
  userId: string,
  version: number,
  holders: Record<string, number>,
): Promise<boolean> {
  const lastLease = Math.max(Date.now(), ...Object.values(holders));
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...runSlotsKey(userId),
          holders,
          version: version + 1,
          expiresAt: epochSeconds(lastLease) + TTL_AFTER_LEASE_S,
        },
        ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :v',
        ...(version === 0 ? {} : { ExpressionAttributeValues: { ':v': version } }),
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Lets `change` edit the live holders (lapsed leases dropped) and saves them; retried on a conflict. */
async function updateSlots(
  db: Db,
  userId: string,
  now: number,
  change: (holders: Record<string, number>) => boolean,
): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const { holders, version } = await readSlots(db, userId);
    const live: Record<string, number> = {};
    for (const [id, until] of Object.entries(holders)) if (until > now) live[id] = until;
    if (!change(live)) return false;
    if (await writeSlots(db, userId, version, live)) return true;
  }
  throw new Error(`run slots of user ${userId}: too many concurrent updates`);
}

/**
 * Takes (or renews) one of the user's slots for this analysis until `leaseUntil` (epoch ms), and so ends its
 * wait (store/crawl-quota.ts). False when
 * every slot is held by another live analysis: the caller queues the analysis and looks again later.
 */
export async function acquireRunSlot(
  db: Db,
  input: { userId: string; analysisId: string; leaseUntil: number; now?: number; limit?: number },
): Promise<boolean> {
  const limit = input.limit ?? MAX_RUNNING_ANALYSES_PER_USER;
  const taken = await updateSlots(db, input.userId, input.now ?? Date.now(), (holders) => {
    if (!(input.analysisId in holders) && Object.keys(holders).length >= limit) return false;
    holders[input.analysisId] = input.leaseUntil;
    return true;
  });
  // With a slot the analysis starts crawling: it no longer counts among the user's waiting ones.
  if (taken) await releaseWaiting(db, input.userId, input.analysisId);
  return taken;
}

/** Gives the analysis' slot back (finished, failed, or failing a run). Idempotent. */
export async function releaseRunSlot(
  db: Db,
  input: { userId: string; analysisId: string; now?: number },
): Promise<void> {
  await updateSlots(db, input.userId, input.now ?? Date.now(), (holders) => {
    if (!(input.analysisId in holders)) return false;
    delete holders[input.analysisId];
    return true;
  });
}
