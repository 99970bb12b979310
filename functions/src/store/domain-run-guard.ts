// One analysis of a domain at a time: a guard item per domain names the analysis that waits or runs. The start
// puts it in the transaction that creates the analysis, on the condition that none is there (two clicks 150 ms
// apart cannot both start one); the end of the analysis takes it away (settleQuota: completed, failed, failed
// as stale, deleted while active), and so does the domain's deletion. A guard that outlives its analysis (a
// crash between two writes) never blocks: a refused start looks at the analysis it names and frees the guard
// when that one is finished, gone or stale (analysis-start.ts).
import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Db } from './db';
import { itemReader } from './items';
import { domainRunGuardKey } from './keys';

export const DOMAIN_BUSY_MESSAGE =
  'An analysis of this domain is already waiting or running. Start the next one when it has finished.';

/** The transaction item that makes `analysisId` the domain's active analysis, if it has none. */
export function domainRunGuardPut(db: Db, domainId: string, analysisId: string) {
  return {
    Put: {
      TableName: db.table,
      Item: { ...domainRunGuardKey(domainId), domainId, analysisId },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

const guardFromItem = itemReader(z.object({ analysisId: z.string() }));

/** The analysis holding the domain's guard, if any (a strongly consistent read: it decides a start). */
export async function domainRunHolder(db: Db, domainId: string): Promise<string | null> {
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: domainRunGuardKey(domainId), ConsistentRead: true }),
  );
  return res.Item ? guardFromItem(res.Item).analysisId : null;
}

/** Frees the domain if `analysisId` holds it (never the guard of a newer analysis). Idempotent. */
export async function releaseDomainRun(db: Db, domainId: string, analysisId: string): Promise<void> {
  await db.doc
    .send(
      new DeleteCommand({
        TableName: db.table,
        Key: domainRunGuardKey(domainId),
        ConditionExpression: 'analysisId = :id',
        ExpressionAttributeValues: { ':id': analysisId },
      }),
    )
    .catch((err: unknown) => {
      // Another analysis holds it, or nothing does: not ours to free.
      if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
    });
}
