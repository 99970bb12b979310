// Fixed-window attempt counters (auth/rate-limit.ts has the rules): one item per scope, subject and window,
// changed only by conditional updates, so parallel attempts cannot count past the limit.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionFailure } from './db';
import { rateKey } from './keys';

export interface WindowCounter {
  scope: string;
  subject: string;
  window: number;
}

/** Counts one in the window if it holds fewer than `max`; false (nothing counted) when it is full. */
export async function countInWindow(
  db: Db,
  w: WindowCounter,
  max: number,
  expiresAt: number,
): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: rateKey(w.scope, w.subject, w.window),
        UpdateExpression: 'ADD #c :one SET expiresAt = :exp',
        ConditionExpression: 'attribute_not_exists(#c) OR #c < :max',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':max': max, ':exp': expiresAt },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Takes one back from the window's count (never below zero). */
export async function uncountInWindow(db: Db, w: WindowCounter): Promise<void> {
  await db.doc
    .send(
      new UpdateCommand({
        TableName: db.table,
        Key: rateKey(w.scope, w.subject, w.window),
        UpdateExpression: 'ADD #c :minus',
        ConditionExpression: '#c > :zero',
        ExpressionAttributeNames: { '#c': 'count' },
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    )
    .catch((err) => {
      if (!isConditionFailure(err)) throw err;
    });
}
