// A domain's field hashes in the table (keys in keys.ts): per script, its integrity violations and the
// digests visitors' browsers reported, counted with atomic ADDs. Bounded, because every script URL and digest
// in a report is the reporter's to choose: a new script takes a place on the domain's COUNT item
// (FIELD_HASH_LIMITS.scriptsPerDomain), a new digest a place on its script's item (digestsPerScript); what
// does not fit is added to an "other" total there, so the totals stay exact while the items stay bounded.
// Two consumers creating the same item at once may both take a place: the cap is then reached one early.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { FIELD_HASH_LIMITS } from '@csp/shared/reports/limits';
import type { FieldDigestCount, FieldIntegrityCount } from '@csp/shared/watch/field-digests';
import * as z from 'zod';
import { batchDelete } from './batch';
import { type Db, isConditionFailure } from './db';
import { itemReader } from './items';
import {
  fieldHashCountKey,
  fieldHashDigestKey,
  fieldHashPartition,
  fieldHashScriptKey,
  isFieldHashDigestSk,
} from './keys';
import { queryItems, queryTable } from './query';

const storedScriptSchema = z.object({
  key: z.string(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  digestSlots: z.number().int().optional(),
  otherDigestReports: z.number().int().optional(),
  integrity: z.number().int().optional(),
  integrityReportOnly: z.number().int().optional(),
  integrityFirstSeen: z.string().optional(),
  integrityLastSeen: z.string().optional(),
});
export type StoredFieldScript = z.infer<typeof storedScriptSchema>;

const storedDigestSchema = z.object({
  key: z.string(),
  digest: z.string(),
  count: z.number().int(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type StoredFieldDigest = z.infer<typeof storedDigestSchema>;

const storedCountSchema = z.object({
  scripts: z.number().int().optional(),
  otherScriptReports: z.number().int().optional(),
});

const scriptFromItem = itemReader(storedScriptSchema);
const digestFromItem = itemReader(storedDigestSchema);
const countFromItem = itemReader(storedCountSchema);

/** Attribute names that are DynamoDB reserved words. */
const NAMES = { '#k': 'key', '#c': 'count' };

/** An UpdateCommand that returns false when its condition failed. */
async function update(
  db: Db,
  key: { pk: string; sk: string },
  expression: string,
  values: Record<string, unknown>,
  condition?: string,
): Promise<boolean> {
  const names = Object.fromEntries(Object.entries(NAMES).filter(([n]) => expression.includes(n)));
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key,
        UpdateExpression: expression,
        ExpressionAttributeValues: values,
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ...(condition ? { ConditionExpression: condition } : {}),
      }),
    );
    return true;
  } catch (err) {
    if (condition && isConditionFailure(err)) return false;
    throw err;
  }
}

/** Takes one place under `max` in the counter `name` of an item; false (nothing taken) when it is full. */
const takePlace = (db: Db, key: { pk: string; sk: string }, name: string, max: number) =>
  update(
    db,
    key,
    `ADD ${name} :one`,
    { ':one': 1, ':max': max },
    `attribute_not_exists(${name}) OR ${name} < :max`,
  );

/** Counts one batch's field hashes (sequential writes: a batch holds a few scripts). */
export async function countFieldHashes(
  db: Db,
  domainId: string,
  counts: { digests: readonly FieldDigestCount[]; integrity: readonly FieldIntegrityCount[] },
): Promise<void> {
  const scripts = new Map<string, { digests: FieldDigestCount[]; integrity?: FieldIntegrityCount }>();
  const of = (key: string) => {
    const s = scripts.get(key) ?? { digests: [] };
    scripts.set(key, s);
    return s;
  };
  for (const d of counts.digests) of(d.scriptKey).digests.push(d);
  for (const i of counts.integrity) of(i.scriptKey).integrity = i;

  for (const [scriptKey, { digests, integrity }] of scripts) {
    const seen: { count: number; firstSeen: string; lastSeen: string }[] = [
      ...digests,
      ...(integrity ? [integrity] : []),
    ];
    const firstSeen = seen.reduce((a, g) => (g.firstSeen < a ? g.firstSeen : a), seen[0]!.firstSeen);
    const lastSeen = seen.reduce((a, g) => (g.lastSeen > a ? g.lastSeen : a), seen[0]!.lastSeen);
    const scriptItem = fieldHashScriptKey(domainId, scriptKey);
    const sets = ['#k = :k', 'firstSeen = if_not_exists(firstSeen, :f)', 'lastSeen = :l'];
    const values: Record<string, unknown> = { ':k': scriptKey, ':f': firstSeen, ':l': lastSeen };
    const adds: string[] = [];
    if (integrity) {
      sets.push('integrityFirstSeen = if_not_exists(integrityFirstSeen, :if)', 'integrityLastSeen = :il');
      adds.push('integrity :i', 'integrityReportOnly :ro');
      Object.assign(values, {
        ':if': integrity.firstSeen,
        ':il': integrity.lastSeen,
        ':i': integrity.count,
        ':ro': integrity.reportOnly,
      });
    }
    const expression = `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`;
    const scriptUpdate = (condition?: string) => update(db, scriptItem, expression, values, condition);
    if (!(await scriptUpdate('attribute_exists(pk)'))) {
      if (
        !(await takePlace(db, fieldHashCountKey(domainId), 'scripts', FIELD_HASH_LIMITS.scriptsPerDomain))
      ) {
        const reports = seen.reduce((n, g) => n + g.count, 0);
        await update(db, fieldHashCountKey(domainId), 'ADD otherScriptReports :n', { ':n': reports });
        continue;
      }
      await scriptUpdate();
    }
    for (const d of digests) {
      const digestItem = fieldHashDigestKey(domainId, scriptKey, d.digest);
      const expr =
        'SET #k = :k, digest = :d, firstSeen = if_not_exists(firstSeen, :f), lastSeen = :l ADD #c :n';
      const vals = { ':k': scriptKey, ':d': d.digest, ':f': d.firstSeen, ':l': d.lastSeen, ':n': d.count };
      const digestUpdate = (condition?: string) => update(db, digestItem, expr, vals, condition);
      if (await digestUpdate('attribute_exists(pk)')) continue;
      if (await takePlace(db, scriptItem, 'digestSlots', FIELD_HASH_LIMITS.digestsPerScript)) {
        await digestUpdate();
      } else {
        await update(db, scriptItem, 'ADD otherDigestReports :n', { ':n': d.count });
      }
    }
  }
}

export interface FieldHashes {
  scripts: { script: StoredFieldScript; digests: StoredFieldDigest[] }[];
  otherScriptReports: number;
}

/** Everything a domain's field hashes hold (bounded by the caps: 500 scripts, 10 digests each). */
export async function loadFieldHashes(db: Db, domainId: string): Promise<FieldHashes> {
  const items = await queryItems(db, {
    condition: 'pk = :p',
    values: { ':p': fieldHashPartition(domainId) },
  });
  const scripts = new Map<string, { script: StoredFieldScript; digests: StoredFieldDigest[] }>();
  const digests: StoredFieldDigest[] = [];
  let otherScriptReports = 0;
  for (const item of items) {
    const sk = String(item.sk);
    if (sk === fieldHashCountKey(domainId).sk) {
      otherScriptReports = countFromItem(item).otherScriptReports ?? 0;
    } else if (isFieldHashDigestSk(sk)) {
      digests.push(digestFromItem(item));
    } else {
      const script = scriptFromItem(item);
      scripts.set(script.key, { script, digests: [] });
    }
  }
  for (const d of digests) scripts.get(d.key)?.digests.push(d);
  return { scripts: [...scripts.values()], otherScriptReports };
}

/** Everything of a domain's field hashes (the domain's deletion). */
export async function deleteDomainFieldHashes(db: Db, domainId: string): Promise<void> {
  await batchDelete(db, await queryTable(db, fieldHashPartition(domainId)));
}
