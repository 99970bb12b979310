// Solved proof-of-work challenges (auth/altcha.ts): a guard item per challenge signature, kept until the
// challenge has expired, so a solution is accepted once.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionFailure } from './db';
import { altchaGuardKey } from './keys';

/** Marks the challenge used until `expiresAt` (epoch seconds); false when it was used already. */
export async function markChallengeUsed(db: Db, signature: string, expiresAt: number): Promise<boolean> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...altchaGuardKey(signature), expiresAt },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
