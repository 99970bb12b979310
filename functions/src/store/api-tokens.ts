// API tokens of a user: one item per token, keyed by the SHA-256 of its value (a request names the token,
// the table finds it in one read), in the user's token collection for the list. Expired tokens stay for
// EXPIRED_KEPT_DAYS so a pipeline still using one hears "expired", not "unknown"; the table's TTL removes
// them after that. Revoking deletes the item at once.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { API_TOKEN_SCOPES, type ApiToken } from '@csp/shared/schemas/api-token';
import * as z from 'zod';
import { batchDelete } from './batch';
import { type Db, epochSeconds } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import { apiTokenIndexes, apiTokenKey, userApiTokensPartition } from './keys';
import { queryPartition } from './query';

const EXPIRED_KEPT_DAYS = 30;
/** The last-used time is written at most this often per token (not on every request). */
const LAST_USED_RESOLUTION_MS = 60_000;

const apiTokenRecordSchema = z.object({
  id: z.string(),
  userId: z.string(),
  hash: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  hint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** ISO time it stops working; null: never. */
  expiresOn: z.string().nullable(),
});
export type ApiTokenRecord = z.infer<typeof apiTokenRecordSchema>;
const tokenFromItem = itemReader(apiTokenRecordSchema);

export function toApiToken(r: ApiTokenRecord): ApiToken {
  return {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    hint: r.hint,
    createdAt: r.createdAt,
    lastUsedAt: r.lastUsedAt,
    expiresAt: r.expiresOn,
  };
}

export async function createApiToken(
  db: Db,
  t: Pick<ApiTokenRecord, 'userId' | 'hash' | 'name' | 'scopes' | 'hint'> & { expiresInDays: number | null },
  now = Date.now(),
): Promise<ApiTokenRecord> {
  const expires = t.expiresInDays === null ? null : now + t.expiresInDays * 86_400_000;
  const record: ApiTokenRecord = {
    id: newId(now),
    userId: t.userId,
    hash: t.hash,
    name: t.name,
    scopes: t.scopes,
    hint: t.hint,
    createdAt: new Date(now).toISOString(),
    lastUsedAt: null,
    expiresOn: expires === null ? null : new Date(expires).toISOString(),
  };
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        ...apiTokenKey(t.hash),
        ...apiTokenIndexes(t.userId, record.id),
        ...record,
        // The table's TTL attribute: gone a while after it expired.
        ...(expires === null ? {} : { expiresAt: epochSeconds(expires) + EXPIRED_KEPT_DAYS * 86_400 }),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

/** The token with this hash (expired ones included: the caller says so), or null. */
export async function getApiTokenByHash(db: Db, hash: string): Promise<ApiTokenRecord | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: apiTokenKey(hash) }));
  return res.Item ? tokenFromItem(res.Item) : null;
}

export async function listApiTokens(db: Db, userId: string): Promise<ApiTokenRecord[]> {
  const items = await queryPartition(db, {
    index: 'gsi1',
    partition: userApiTokensPartition(userId),
    newestFirst: true,
  });
  return items.map(tokenFromItem);
}

/** Revokes the user's token `id`; false when the user has no such token. */
export async function revokeApiToken(db: Db, userId: string, id: string): Promise<boolean> {
  const token = (await listApiTokens(db, userId)).find((t) => t.id === id);
  if (!token) return false;
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: apiTokenKey(token.hash) }));
  return true;
}

/** Notes a use, at most once a minute per token (a conditional write that mostly does nothing). */
export async function touchApiToken(db: Db, token: ApiTokenRecord, now = Date.now()): Promise<void> {
  if (token.lastUsedAt && now - Date.parse(token.lastUsedAt) < LAST_USED_RESOLUTION_MS) return;
  await db.doc
    .send(
      new UpdateCommand({
        TableName: db.table,
        Key: apiTokenKey(token.hash),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt = :null OR lastUsedAt < :cutoff)',
        ExpressionAttributeValues: {
          ':now': new Date(now).toISOString(),
          ':null': null,
          ':cutoff': new Date(now - LAST_USED_RESOLUTION_MS).toISOString(),
        },
      }),
    )
    .catch((err: unknown) => {
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    });
}

/** Every token of a user (account deletion). */
export async function deleteUserApiTokens(db: Db, userId: string): Promise<void> {
  const tokens = await listApiTokens(db, userId);
  await batchDelete(
    db,
    tokens.map((t) => apiTokenKey(t.hash)),
  );
}
