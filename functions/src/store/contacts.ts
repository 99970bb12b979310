// The address a user's alerts go to (keys.ts userContactKey says why it is not read from the user item).
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Db } from './db';
import { itemReader } from './items';
import { userContactKey } from './keys';

const contactSchema = z.object({ userId: z.string(), email: z.string() });
const contactFromItem = itemReader(contactSchema);

/** Records (or forgets, with null) where the user's alerts are mailed. */
export async function putContact(db: Db, userId: string, email: string | null | undefined): Promise<void> {
  if (!email) {
    await db.doc.send(new DeleteCommand({ TableName: db.table, Key: userContactKey(userId) }));
    return;
  }
  await db.doc.send(
    new PutCommand({ TableName: db.table, Item: { ...userContactKey(userId), userId, email } }),
  );
}

export async function getContactEmail(db: Db, userId: string): Promise<string | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: userContactKey(userId) }));
  return res.Item ? contactFromItem(res.Item).email : null;
}

export async function deleteContact(db: Db, userId: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: userContactKey(userId) }));
}
