// The watch figures of a domain the dashboard lists (shared/schemas/domain-watch.ts), read from what the
// inventory and the watch already store (no item of their own, so no writer has to keep one in step):
// - pending scripts: a COUNT query over the inventory's script items filtered on the state. Only the count
//   comes back, but DynamoDB charges for the items read: about (inventory size / 8 KB) read units, bounded by
//   WATCH_LIMITS.scripts crawled scripts plus the capped field-reported ones (a typical 100-script inventory
//   is ~50 KB: 7 units).
// - the last drift: the newest run item, its counts projected. Charged on the whole item: its packed snapshot
//   and changes, a few KB usually, at most 400 KB (50 units) for a site at every limit.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type DomainWatch, driftStateSchema } from '@csp/shared/schemas/domain-watch';
import * as z from 'zod';
import type { Db } from './db';
import { itemReader } from './items';
import { SCRIPT_ENTRY_SK_PREFIX, scriptInventoryPartition, watchRunsPartition } from './keys';

async function countPendingScripts(db: Db, domainId: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
        FilterExpression: '#state = :pending',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':p': scriptInventoryPartition(domainId),
          ':s': SCRIPT_ENTRY_SK_PREFIX,
          ':pending': 'pending',
        },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    count += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return count;
}

const readLatest = itemReader(
  z.object({
    analysisId: z.string(),
    completedAt: z.string(),
    counts: z.object({ drift: driftStateSchema.nullable() }),
  }),
);

async function lastDrift(db: Db, domainId: string): Promise<DomainWatch['lastDrift']> {
  const res = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': watchRunsPartition(domainId) },
      ScanIndexForward: false,
      Limit: 1,
      ProjectionExpression: '#a, #c, #n',
      ExpressionAttributeNames: { '#a': 'analysisId', '#c': 'completedAt', '#n': 'counts' },
    }),
  );
  const item = res.Items?.[0];
  if (!item) return null;
  const run = readLatest(item);
  return run.counts.drift === null
    ? null
    : { state: run.counts.drift, analysisId: run.analysisId, completedAt: run.completedAt };
}

export async function getDomainWatch(db: Db, domainId: string): Promise<DomainWatch> {
  const [pendingScripts, drift] = await Promise.all([
    countPendingScripts(db, domainId),
    lastDrift(db, domainId),
  ]);
  return { pendingScripts, lastDrift: drift };
}
