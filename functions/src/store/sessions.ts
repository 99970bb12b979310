// Sessions (the spec's auth_sessions: sid, sess, expire). The cookie only names a session; this item decides
// whether it is alive, so logout, password change and account deletion revoke it at once.
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { batchDelete } from './batch';
import { type Db, epochSeconds, nowIso } from './db';
import { itemReader } from './items';
import { sessionIndexes, sessionKey, userSessionsPartition } from './keys';
import { queryPartition } from './query';

const sessionRecordSchema = z.object({
  sid: z.string(),
  userId: z.string(),
  /** Free-form session data (the spec's `sess`). */
  sess: z.record(z.string(), z.unknown()),
  /** Expiry, epoch seconds (the spec's `expire`; also the table's TTL attribute). */
  expiresAt: z.number(),
  createdAt: z.string(),
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

/** The one place a stored item becomes a session. */
export const sessionFromItem = itemReader(sessionRecordSchema);

export async function createSession(db: Db, s: Omit<SessionRecord, 'createdAt'>): Promise<SessionRecord> {
  const record = { ...s, createdAt: nowIso() };
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...sessionKey(s.sid), ...sessionIndexes(s.userId, s.sid), ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return record;
}

/** The live session, or null. TTL deletion is lazy (up to days in AWS), so expiry is checked here too. */
export async function getSession(db: Db, sid: string): Promise<SessionRecord | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: sessionKey(sid) }));
  const session = res.Item ? sessionFromItem(res.Item) : null;
  if (!session || session.expiresAt <= epochSeconds()) return null;
  return session;
}

export async function deleteSession(db: Db, sid: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: sessionKey(sid) }));
}

/** Revokes every session of a user, except `keepSid` (the one that asked, on a password change). */
export async function deleteUserSessions(db: Db, userId: string, keepSid?: string): Promise<void> {
  const items = await queryPartition(db, {
    index: 'gsi1',
    partition: userSessionsPartition(userId),
    projection: 'sid',
  });
  const sids = items.map((i) => i.sid as string).filter((sid) => sid !== keepSid);
  await batchDelete(db, sids.map(sessionKey));
}
