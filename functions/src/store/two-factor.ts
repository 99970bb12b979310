// The table side of two-factor sign-in (auth/two-factor.ts has the rules): the TOTP time steps already used,
// and the pending sign-ins waiting for their code. Both expire through the table's TTL attribute.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { type Db, epochSeconds, isConditionFailure } from './db';
import { mfaPendingKey, totpStepKey } from './keys';

/** How long a used time step is remembered: longer than the drift a code is accepted within. */
const USED_STEP_SECONDS = 300;

/** Records a TOTP time step as used; false when it was used already (the code must not count twice). */
export async function burnTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...totpStepKey(userId, step), expiresAt: epochSeconds() + USED_STEP_SECONDS },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

const mfaPendingSchema = z.object({ userId: z.string(), wrong: z.number(), expiresAt: z.number() });
export type MfaPending = z.infer<typeof mfaPendingSchema>;

export async function putMfaPending(db: Db, id: string, userId: string, expiresAt: number): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...mfaPendingKey(id), userId, wrong: 0, expiresAt },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** The pending sign-in as stored (expired ones included: the TTL deletes them only eventually), or null. */
export async function getMfaPending(db: Db, id: string): Promise<MfaPending | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: mfaPendingKey(id) }));
  return res.Item ? mfaPendingSchema.parse(res.Item) : null;
}

/**
 * Counts a wrong code, if fewer than `max` were counted; the pending sign-in is deleted when this one reaches
 * `max`. False when none was left (or it no longer exists).
 */
export async function countWrongCode(db: Db, id: string, max: number): Promise<boolean> {
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: mfaPendingKey(id),
        UpdateExpression: 'ADD wrong :one',
        ConditionExpression: 'attribute_exists(pk) AND wrong < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': max },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if ((res.Attributes?.wrong as number) >= max) {
      await db.doc.send(new DeleteCommand({ TableName: db.table, Key: mfaPendingKey(id) }));
    }
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Deletes the pending sign-in: true for exactly one of any concurrent callers. */
export async function takeMfaPending(db: Db, id: string): Promise<boolean> {
  try {
    await db.doc.send(
      new DeleteCommand({
        TableName: db.table,
        Key: mfaPendingKey(id),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
