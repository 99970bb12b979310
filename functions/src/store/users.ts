// Users: unique username and email enforced by guard items written in one transaction with the user.
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type PublicUser, publicUserSchema, type Role } from '@csp/shared/schemas/auth';
import * as z from 'zod';
import { fieldError } from '../errors';
import { type Db, failedConditionIndexes, isConditionFailure, nowIso } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import { emailGuardKey, userIndexes, userKey, usernameGuardKey } from './keys';

/** Refusal of an email address that has an account already: generic, so it cannot be used to probe. */
export const EMAIL_NOT_USABLE = 'Please try again with different details.';

/** A user as stored: what the client sees, and what never leaves the server. */
const userRecordSchema = publicUserSchema.extend({
  passwordHash: z.string(),
  /** AES-256-GCM ciphertext of the TOTP secret (see auth/secret-box.ts); never leaves the server. */
  twoFactorSecret: z.string().nullable(),
  /** SHA-256 hashes of the unused recovery codes (see store/recovery-codes.ts); absent when none are left. */
  recoveryCodes: z.set(z.string()).optional(),
  /** When they joined their team (set with teamId, see store/teams.ts). */
  teamJoinedAt: z.string().nullable().optional(),
});
export type UserRecord = z.infer<typeof userRecordSchema>;

export function toPublicUser(u: UserRecord): PublicUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role,
    teamId: u.teamId,
    twoFactorEnabled: u.twoFactorEnabled,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

/** The one place a stored item becomes this entity. */
export const userFromItem = itemReader(userRecordSchema);

export async function createUser(
  db: Db,
  input: {
    username: string;
    email: string | null;
    passwordHash: string;
    firstName?: string | null;
    lastName?: string | null;
    role?: Role;
  },
): Promise<UserRecord> {
  const id = newId();
  const now = nowIso();
  const user: UserRecord = {
    id,
    username: input.username,
    email: input.email,
    firstName: input.firstName || null,
    lastName: input.lastName || null,
    role: input.role ?? 'user',
    teamId: null,
    twoFactorEnabled: false,
    twoFactorSecret: null,
    passwordHash: input.passwordHash,
    createdAt: now,
    updatedAt: now,
  };
  const guard = { ConditionExpression: 'attribute_not_exists(pk)', TableName: db.table };
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { ...guard, Item: { ...userKey(id), ...userIndexes(id), ...user } } },
          { Put: { ...guard, Item: { ...usernameGuardKey(input.username), userId: id } } },
          ...(input.email
            ? [{ Put: { ...guard, Item: { ...emailGuardKey(input.email), userId: id } } }]
            : []),
        ],
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const failed = failedConditionIndexes(err);
    // Whether an email has an account is not told (usernames are public; email addresses are not).
    if (failed.includes(2)) throw fieldError(409, 'email', EMAIL_NOT_USABLE);
    throw fieldError(409, 'username', 'Username already taken');
  }
  return user;
}

export async function getUser(db: Db, id: string): Promise<UserRecord | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: userKey(id) }));
  return res.Item ? userFromItem(res.Item) : null;
}

export async function getUserByUsername(db: Db, username: string): Promise<UserRecord | null> {
  const guard = await db.doc.send(new GetCommand({ TableName: db.table, Key: usernameGuardKey(username) }));
  const userId = guard.Item?.userId as string | undefined;
  return userId ? getUser(db, userId) : null;
}

export async function updateUserFields(
  db: Db,
  id: string,
  fields: Partial<Pick<UserRecord, 'firstName' | 'lastName' | 'role' | 'passwordHash' | 'teamId'>> &
    Partial<Pick<UserRecord, 'twoFactorEnabled' | 'twoFactorSecret'>>,
): Promise<UserRecord> {
  const entries = Object.entries({ ...fields, updatedAt: nowIso() }).filter(([, v]) => v !== undefined);
  const res = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: userKey(id),
      ConditionExpression: 'attribute_exists(pk)',
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return userFromItem(res.Attributes ?? {});
}

/** Changes the email, moving its guard item in the same transaction so uniqueness holds. */
export async function changeUserEmail(db: Db, user: UserRecord, email: string): Promise<UserRecord> {
  if (user.email?.toLowerCase() === email.toLowerCase()) return user;
  const now = nowIso();
  try {
    await db.doc.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: db.table,
              Item: { ...emailGuardKey(email), userId: user.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...(user.email ? [{ Delete: { TableName: db.table, Key: emailGuardKey(user.email) } }] : []),
          {
            Update: {
              TableName: db.table,
              Key: userKey(user.id),
              UpdateExpression: 'SET email = :e, updatedAt = :u',
              ExpressionAttributeValues: { ':e': email, ':u': now },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw fieldError(409, 'email', EMAIL_NOT_USABLE);
    throw err;
  }
  return { ...user, email, updatedAt: now };
}

export async function deleteUserRecord(db: Db, user: UserRecord): Promise<void> {
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: db.table, Key: userKey(user.id) } },
        { Delete: { TableName: db.table, Key: usernameGuardKey(user.username) } },
        ...(user.email ? [{ Delete: { TableName: db.table, Key: emailGuardKey(user.email) } }] : []),
      ],
    }),
  );
}
