// Achievements a user has unlocked (spec section 3). The catalogue and the rules that unlock them live in
// shared/; this is only their storage.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './db';
import { achievementPrefix } from './keys';

export interface AchievementRecord {
  id: string;
  userId: string;
  type: string;
  title: string;
  description: string;
  icon: string;
  rarity: 'common' | 'rare' | 'epic' | 'legendary';
  points: number;
  metadata: Record<string, unknown>;
  unlockedAt: string;
  createdAt: string;
}

export async function listUserAchievements(db: Db, userId: string): Promise<AchievementRecord[]> {
  const { pk, skPrefix } = achievementPrefix(userId);
  const res = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: { ':p': pk, ':s': skPrefix },
    }),
  );
  return (res.Items ?? [])
    .map(({ pk: _p, sk: _s, ...rest }) => rest as AchievementRecord)
    .sort((a, b) => b.unlockedAt.localeCompare(a.unlockedAt));
}
