// The suspicious inline-code groups a domain's reports have shown (achievements/suspicious-watch.ts judges
// them): one item per group, kept as long as the reports that showed it, after which the group is news again.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionFailure } from './db';
import { suspiciousSeenKey } from './keys';
import { retentionExpiry } from './reports';

/** Remembers the group (by its hash); true when the domain's reports had not shown it before. */
export async function rememberSuspiciousGroup(
  db: Db,
  domainId: string,
  hash: string,
  firstSeen: string,
): Promise<boolean> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: {
          ...suspiciousSeenKey(domainId, hash),
          firstSeen,
          expiresAt: retentionExpiry(Date.parse(firstSeen)),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false; // seen before
    throw err;
  }
}
