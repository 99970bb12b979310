// The admin panel's lists: one partition of gsi3 per entity type, newest first, a page at a time (one Query
// a page, never a Scan), with an opaque cursor that can only continue the same list; and their totals.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { analysisFromItem } from './analyses';
import type { Db } from './db';
import { domainFromItem } from './domains';
import { TYPE_PARTITIONS } from './keys';
import { userFromItem } from './users';

export type EntityType = keyof typeof TYPE_PARTITIONS;

/** How each listed type's items are read. */
const READERS = {
  user: userFromItem,
  domain: domainFromItem,
  analysis: analysisFromItem,
} as const satisfies Record<EntityType, unknown>;
type EntityOf<T extends EntityType> = ReturnType<(typeof READERS)[T]>;

export class InvalidAdminCursorError extends Error {}

const cursorSchema = z.object({ pk: z.string(), sk: z.string(), gsi3pk: z.string(), gsi3sk: z.string() });

function decodeCursor(cursor: string, type: EntityType): Record<string, string> {
  try {
    const key = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (key.gsi3pk !== TYPE_PARTITIONS[type]) throw new Error('another list');
    return key;
  } catch {
    throw new InvalidAdminCursorError('cursor is not valid');
  }
}

export async function listTypePage<T extends EntityType>(
  db: Db,
  type: T,
  opts: { limit: number; cursor?: string | undefined },
): Promise<{ items: EntityOf<T>[]; nextCursor: string | null }> {
  const res = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :p',
      ExpressionAttributeValues: { ':p': TYPE_PARTITIONS[type] },
      ScanIndexForward: false,
      Limit: opts.limit,
      ...(opts.cursor ? { ExclusiveStartKey: decodeCursor(opts.cursor, type) } : {}),
    }),
  );
  const last = res.LastEvaluatedKey;
  return {
    items: (res.Items ?? []).map((item) => READERS[type](item) as EntityOf<T>),
    nextCursor: last ? Buffer.from(JSON.stringify(last)).toString('base64url') : null,
  };
}

/** How many items of a type there are (a COUNT query over the type's partition, page by page). */
export async function countType(db: Db, type: EntityType): Promise<number> {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :p',
        ExpressionAttributeValues: { ':p': TYPE_PARTITIONS[type] },
        Select: 'COUNT',
        ExclusiveStartKey: start,
      }),
    );
    total += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return total;
}
