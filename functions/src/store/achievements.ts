// Achievements (spec section 3): what a user has unlocked, and the counters that unlock them. The catalogue
// and the rule live in shared/achievements; this is their storage.
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AchievementDefinition, Counters } from '@csp/shared/achievements/catalogue';
import { type Achievement, achievementSchema, countersSchema } from '@csp/shared/achievements/schemas';
import { byCodeUnits } from '@csp/shared/text/order';
import { type Db, isConditionFailure, nowIso } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import { achievementCountersKey, achievementKey, achievementPrefix } from './keys';

const fromItem = itemReader(achievementSchema);
const countersFromItem = itemReader(countersSchema);

export async function listUserAchievements(db: Db, userId: string): Promise<Achievement[]> {
  const { pk, skPrefix } = achievementPrefix(userId);
  const res = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': pk, ':s': skPrefix },
    }),
  );
  return (res.Items ?? []).map(fromItem).sort((a, b) => byCodeUnits(b.unlockedAt, a.unlockedAt));
}

export interface CounterChange {
  add?: Counters;
  /** Set to this value (a flag, or the latest moment of something). */
  atLeast?: Counters;
  /** Set only if never set (the first moment of something). */
  firstOnly?: Counters;
}

/** Adds to some counters and sets others, atomically; the counters after the change. */
export async function updateCounters(db: Db, userId: string, change: CounterChange): Promise<Counters> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds: string[] = [];
  const sets: string[] = [];
  for (const [metric, n] of Object.entries(change.add ?? {})) {
    if (!n) continue;
    names[`#${metric}`] = metric;
    values[`:${metric}`] = n;
    adds.push(`#${metric} :${metric}`);
  }
  for (const [metric, n] of Object.entries(change.atLeast ?? {})) {
    names[`#${metric}`] = metric;
    values[`:${metric}`] = n;
    // A flag such as twoFactor: 1 once it happened, whatever happens after.
    sets.push(`#${metric} = :${metric}`);
  }
  for (const [metric, n] of Object.entries(change.firstOnly ?? {})) {
    names[`#${metric}`] = metric;
    values[`:${metric}`] = n;
    sets.push(`#${metric} = if_not_exists(#${metric}, :${metric})`);
  }
  if (adds.length === 0 && sets.length === 0) return {};
  const res = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: achievementCountersKey(userId),
      UpdateExpression: [
        adds.length ? `ADD ${adds.join(', ')}` : '',
        sets.length ? `SET ${sets.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }),
  );
  return countersFromItem(res.Attributes ?? {});
}

export async function getCounters(db: Db, userId: string): Promise<Counters> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: achievementCountersKey(userId) }));
  return countersFromItem(res.Item ?? {});
}

/** Records an unlock once (a concurrent second unlock of the same type writes nothing). */
export async function putUnlock(db: Db, userId: string, a: AchievementDefinition): Promise<boolean> {
  const now = nowIso();
  const record: Achievement = {
    id: newId(),
    userId,
    type: a.type,
    title: a.title,
    description: a.description,
    icon: a.icon,
    rarity: a.rarity,
    points: a.points,
    metadata: { target: a.target, metric: a.metric },
    unlockedAt: now,
    createdAt: now,
    seen: false,
  };
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...achievementKey(userId, a.type), ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

export async function markSeen(db: Db, userId: string, type: string): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: achievementKey(userId, type),
        UpdateExpression: 'SET seen = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': true },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
