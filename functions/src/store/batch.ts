// Batch reads and writes with DynamoDB's contract honoured: 25 writes or 100 reads a request, and what
// DynamoDB leaves unprocessed retried with exponential backoff.
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

type Key = { pk: string; sk: string };
const MAX_ATTEMPTS = 8;
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, 50 * 2 ** attempt));

async function batchWrite(db: Db, requests: unknown[]): Promise<void> {
  for (let i = 0; i < requests.length; i += 25) {
    let left = requests.slice(i, i + 25);
    for (let attempt = 0; left.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new Error('DynamoDB kept items unprocessed after 8 attempts');
      if (attempt > 0) await backoff(attempt - 1);
      const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.table]: left as never } }));
      left = out.UnprocessedItems?.[db.table] ?? [];
    }
  }
}

/** Deletes many items by key. */
export async function batchDelete(db: Db, keys: Key[]): Promise<void> {
  await batchWrite(
    db,
    keys.map((Key) => ({ DeleteRequest: { Key: { pk: Key.pk, sk: Key.sk } } })),
  );
}

/** Puts many items (each with its pk/sk); a put of an existing key replaces it. */
export async function batchPut(db: Db, items: Record<string, unknown>[]): Promise<void> {
  await batchWrite(
    db,
    items.map((Item) => ({ PutRequest: { Item } })),
  );
}

/** Reads many items by key; missing ones are simply absent from the result. */
export async function batchGet(
  db: Db,
  keys: Key[],
  opts: { consistent?: boolean; projection?: string } = {},
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const unique = [...new Map(keys.map((k) => [`${k.pk}\u0000${k.sk}`, k])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let left: Record<string, unknown>[] = unique.slice(i, i + 100);
    for (let attempt = 0; left.length > 0; attempt++) {
      if (attempt >= MAX_ATTEMPTS) throw new Error('DynamoDB kept keys unprocessed after 8 attempts');
      if (attempt > 0) await backoff(attempt - 1);
      const out = await db.doc.send(
        new BatchGetCommand({
          RequestItems: {
            [db.table]: {
              Keys: left,
              ConsistentRead: opts.consistent ?? false,
              ...(opts.projection ? { ProjectionExpression: opts.projection } : {}),
            },
          },
        }),
      );
      found.push(...(out.Responses?.[db.table] ?? []));
      left = (out.UnprocessedKeys?.[db.table]?.Keys as Record<string, unknown>[] | undefined) ?? [];
    }
  }
  return found;
}
