// Two-factor authentication with TOTP (RFC 6238: 30 s steps, 6 digits, one step of drift each way).
// A used time step is recorded so the same code is not accepted twice.
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Secrets } from '../secrets';
import { type Db, epochSeconds, isConditionFailure } from '../store/db';
import { mfaPendingKey, totpStepKey } from '../store/keys';
import type { UserRecord } from '../store/users';
import { open, seal } from './secret-box';

const ISSUER = 'CSP Generator';

/** The table (for burnt time steps) and the key that seals TOTP secrets. */
export interface TotpDeps {
  db: Db;
  secrets: Pick<Secrets, 'totpEncryptionKey'>;
}

export async function newTotpSetup(deps: TotpDeps, user: UserRecord) {
  const secret = generateSecret();
  const uri = generateURI({ issuer: ISSUER, label: user.username, secret });
  // Rendered here: a TOTP secret never goes to a third-party QR service.
  const qrCodeUrl = await QRCode.toDataURL(uri, { margin: 1, width: 220 });
  return { secret, qrCodeUrl, sealed: seal(deps.secrets.totpEncryptionKey, secret) };
}

/** Checks a code against a sealed secret and burns its time step. */
export async function verifyTotp(deps: TotpDeps, userId: string, sealedSecret: string, token: string) {
  if (!/^\d{6}$/.test(token)) return false;
  const secret = open(deps.secrets.totpEncryptionKey, sealedSecret);
  const result = await verify({ secret, token, epochTolerance: 30 });
  // A TOTP result names the time step the code matched in: that step is burnt, not one from a second clock
  // read (which may already be the next step).
  if (!result.valid || !('timeStep' in result)) return false;
  const timeStep = result.timeStep;
  try {
    await deps.db.doc.send(
      new PutCommand({
        TableName: deps.db.table,
        Item: { ...totpStepKey(userId, timeStep), expiresAt: epochSeconds() + 300 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
  return true;
}

export async function verifyTotpForLogin(deps: TotpDeps, user: UserRecord, token: string) {
  return user.twoFactorSecret ? verifyTotp(deps, user.id, user.twoFactorSecret, token) : false;
}

// Between the two steps of a 2FA sign-in: an item in the table, named by an unguessable id in a cookie
// scoped to /api/login, saying the password and the proof-of-work were accepted for this user. It is used
// once, expires after 5 minutes, and dies after MFA_MAX_WRONG_CODES wrong codes.
export const MFA_PENDING_SECONDS = 300;
export const MFA_MAX_WRONG_CODES = 5;

/** Stores a pending sign-in for the user; answers its id, which the API puts in the cookie. */
export async function startMfaPending(db: Db, userId: string): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...mfaPendingKey(id), userId, wrong: 0, expiresAt: epochSeconds() + MFA_PENDING_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return id;
}

/** The id of this client's live pending sign-in for the user, or null (none, expired, someone else's). */
export async function readMfaPending(db: Db, id: string | undefined, userId: string): Promise<string | null> {
  if (!id || id.length > 100) return null;
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: mfaPendingKey(id) }));
  const item = res.Item;
  // The TTL deletes expired items only eventually: the expiry is checked here.
  if (!item || item.userId !== userId || (item.expiresAt as number) <= epochSeconds()) return null;
  return id;
}

/** Counts a wrong code; the pending sign-in ends at the limit. False when no attempt was left. */
export async function recordWrongCode(db: Db, id: string): Promise<boolean> {
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: mfaPendingKey(id),
        UpdateExpression: 'ADD wrong :one',
        ConditionExpression: 'attribute_exists(pk) AND wrong < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': MFA_MAX_WRONG_CODES },
        ReturnValues: 'ALL_NEW',
      }),
    );
    if ((res.Attributes?.wrong as number) >= MFA_MAX_WRONG_CODES) {
      await db.doc.send(new DeleteCommand({ TableName: db.table, Key: mfaPendingKey(id) }));
    }
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Uses the pending sign-in up: true for exactly one of any concurrent callers. */
export async function consumeMfaPending(db: Db, id: string): Promise<boolean> {
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
