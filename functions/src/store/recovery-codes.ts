// The table side of two-factor recovery codes (auth/recovery-codes.ts has the rules). The hashes of a user's
// codes are a string set on the user item, so turning 2FA on or off, replacing the codes and using one are
// each a single conditional write: a code is removed by the write that accepts it, and of two concurrent
// uses of one code only one finds it still there.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionFailure, nowIso } from './db';
import { userKey } from './keys';
import { type UserRecord, userFromItem } from './users';

/**
 * Turns 2FA on with these code hashes, if the stored secret is still the one the code was checked against.
 * Null when 2FA was on already (a second verify gets no second set) or the setup was abandoned or restarted.
 */
export async function enableTwoFactor(
  db: Db,
  userId: string,
  sealedSecret: string,
  hashes: string[],
): Promise<UserRecord | null> {
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: userKey(userId),
        UpdateExpression: 'SET twoFactorEnabled = :on, recoveryCodes = :codes, updatedAt = :now',
        ConditionExpression: 'twoFactorEnabled = :off AND twoFactorSecret = :secret',
        ExpressionAttributeValues: {
          ':on': true,
          ':off': false,
          ':secret': sealedSecret,
          ':codes': new Set(hashes),
          ':now': nowIso(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return userFromItem(res.Attributes ?? {});
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/** Replaces all the codes of a user with 2FA on; false when 2FA is off. */
export async function replaceRecoveryCodes(db: Db, userId: string, hashes: string[]): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: userKey(userId),
        UpdateExpression: 'SET recoveryCodes = :codes, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND twoFactorEnabled = :on',
        ExpressionAttributeValues: { ':on': true, ':codes': new Set(hashes), ':now': nowIso() },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Removes one code if the user has it and 2FA is on: true for exactly one of any concurrent callers. */
export async function takeRecoveryCode(db: Db, userId: string, hash: string): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: userKey(userId),
        // Removing the last element removes the attribute: no empty set is ever stored.
        UpdateExpression: 'DELETE recoveryCodes :one',
        ConditionExpression: 'twoFactorEnabled = :on AND contains(recoveryCodes, :hash)',
        ExpressionAttributeValues: { ':on': true, ':one': new Set([hash]), ':hash': hash },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Turns 2FA off: the secret and every recovery code go with it. */
export async function disableTwoFactor(db: Db, userId: string): Promise<UserRecord> {
  const res = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: userKey(userId),
      UpdateExpression:
        'SET twoFactorEnabled = :off, twoFactorSecret = :none, updatedAt = :now REMOVE recoveryCodes',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':off': false, ':none': null, ':now': nowIso() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return userFromItem(res.Attributes ?? {});
}

/**
 * Abandons a setup that was not verified: the secret it stored is dropped, so that setup can no longer be
 * completed. False when 2FA is on (a cancel racing a verify must not take the secret of an enabled account).
 */
export async function abandonTwoFactorSetup(db: Db, userId: string): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: userKey(userId),
        UpdateExpression: 'SET twoFactorSecret = :none, updatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND twoFactorEnabled = :off',
        ExpressionAttributeValues: { ':off': false, ':none': null, ':now': nowIso() },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
