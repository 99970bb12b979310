// Batch writes with DynamoDB's contract honoured: 25 items a request, unprocessed items retried with backoff.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

/** Deletes many items by key, 25 at a time, retrying what DynamoDB leaves unprocessed. */
export async function batchDelete(db: Db, keys: { pk: string; sk: string }[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 25) {
    let requests: unknown[] = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= 8) throw new Error('DynamoDB kept items unprocessed after 8 attempts');
      const out = await db.doc.send(
        new BatchWriteCommand({ RequestItems: { [db.table]: requests as never } }),
      );
      requests = out.UnprocessedItems?.[db.table] ?? [];
      if (requests.length > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}
