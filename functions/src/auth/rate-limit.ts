// Fixed-window counters of failed sign-ins, per username and per client address, in the table (so every
// Lambda instance sees the same count). Items expire with the window.
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, epochSeconds } from '../store/db';
import { rateKey } from '../store/keys';

export interface RateLimit {
  scope: string;
  subject: string;
  max: number;
  windowSeconds: number;
}

const windowOf = (l: RateLimit, now: number) => Math.floor(now / l.windowSeconds);

export async function isLimited(db: Db, l: RateLimit): Promise<boolean> {
  const now = epochSeconds();
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: rateKey(l.scope, l.subject, windowOf(l, now)) }),
  );
  return ((res.Item?.count as number | undefined) ?? 0) >= l.max;
}

export async function recordFailure(db: Db, l: RateLimit): Promise<void> {
  const now = epochSeconds();
  const w = windowOf(l, now);
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: rateKey(l.scope, l.subject, w),
      UpdateExpression: 'ADD #c :one SET expiresAt = :exp',
      ExpressionAttributeNames: { '#c': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':exp': (w + 1) * l.windowSeconds + 60 },
    }),
  );
}
