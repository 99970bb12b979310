// Reading one partition of an index, page after page. Every list the product shows is one of these, never
// a Scan.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';

export interface PartitionQuery {
  index: 'gsi1' | 'gsi2' | 'gsi3';
  partition: string;
  /** Stop after this many items (the newest ones when newestFirst). */
  limit?: number;
  /** Ids are time-sortable, so descending sort keys are newest first. */
  newestFirst?: boolean;
  /** Only these attributes (e.g. 'pk, sk' to delete what was found). */
  projection?: string;
}

export async function queryPartition(db: Db, q: PartitionQuery): Promise<Record<string, unknown>[]> {
  return queryItems(db, {
    index: q.index,
    condition: `${q.index}pk = :p`,
    values: { ':p': q.partition },
    ...(q.limit !== undefined ? { limit: q.limit } : {}),
    ...(q.newestFirst ? { newestFirst: true } : {}),
    ...(q.projection ? { projection: q.projection } : {}),
  });
}

/** Any key condition on the table or an index, page after page (still never a Scan). */
export interface KeyQuery {
  index?: 'gsi1' | 'gsi2' | 'gsi3';
  /** The key condition, e.g. 'pk = :p AND begins_with(sk, :s)'. */
  condition: string;
  values: Record<string, unknown>;
  limit?: number;
  newestFirst?: boolean;
  projection?: string;
}

export async function queryItems(db: Db, q: KeyQuery): Promise<Record<string, unknown>[]> {
  const limit = q.limit ?? Number.POSITIVE_INFINITY;
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        ...(q.index ? { IndexName: q.index } : {}),
        KeyConditionExpression: q.condition,
        ExpressionAttributeValues: q.values,
        ScanIndexForward: !q.newestFirst,
        ...(Number.isFinite(limit) ? { Limit: Math.min(100, limit - items.length) } : {}),
        ...(q.projection ? { ProjectionExpression: q.projection } : {}),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items;
}

/** Keys of every item of a base-table partition. */
export async function queryTable(db: Db, pk: string): Promise<{ pk: string; sk: string }[]> {
  const keys: { pk: string; sk: string }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': pk },
        ProjectionExpression: 'pk, sk',
        ExclusiveStartKey: start,
      }),
    );
    keys.push(...((res.Items ?? []) as { pk: string; sk: string }[]));
    start = res.LastEvaluatedKey;
  } while (start);
  return keys;
}
