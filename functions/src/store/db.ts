// The table handle every store function takes: a DocumentClient and the table's name.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface Db {
  doc: DynamoDBDocumentClient;
  table: string;
}

export function createDb(opts: { table: string; endpoint?: string; region?: string }): Db {
  const client = new DynamoDBClient({
    region: opts.region ?? 'us-east-1',
    ...(opts.endpoint
      ? {
          endpoint: opts.endpoint,
          // DynamoDB Local accepts any credentials; fixed ones keep it independent of the user's AWS setup.
          credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        }
      : {}),
  });
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { doc, table: opts.table };
}

/** True when a conditional write or a transaction failed on its condition. */
export function isConditionFailure(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException';
}

/** For a cancelled transaction, the index of each item whose condition failed. */
export function failedConditionIndexes(err: unknown): number[] {
  const reasons = (err as { CancellationReasons?: { Code?: string }[] } | null)?.CancellationReasons ?? [];
  return reasons.flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/**
 * True when DynamoDB refused a write because a transaction was changing the same item at that moment: a
 * single-item write gets TransactionConflictException, a transaction is cancelled with that reason.
 */
export function isTransactionConflict(err: unknown): boolean {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] } | null;
  if (e?.name === 'TransactionConflictException') return true;
  return (
    e?.name === 'TransactionCanceledException' &&
    !!e.CancellationReasons?.some((r) => r.Code === 'TransactionConflict')
  );
}

/** A short random wait before the `attempt`-th retry of a write that met a transaction, longer each time. */
export const conflictBackoff = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.random() * 20 * attempt));

export const nowIso = () => new Date().toISOString();
export const epochSeconds = (ms = Date.now()) => Math.floor(ms / 1000);
