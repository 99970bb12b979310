// A domain's script inventory in the table: one item per script, the authorization rules, one META item
// (the last run folded in), and the append-only history (keys in keys.ts).
//
// Writes are optimistic: each script item carries `rev`, and every write of one is conditional on the rev
// it was read with, so a run folded in while the owner authorizes never loses either (the loser reloads and
// tries again, see watch/inventory-update.ts). History rows get fresh time-sortable ids and are only ever
// put (conditionally on not existing): nothing here updates or deletes one except the domain's deletion.
//
// Last seen: a script a run saw is in every later run until it is removed, so the last-seen time of every
// script that is not removed is the last run's time, kept once on META. A script item keeps the lastSeen of
// when it was last written, and `effectiveEntry` reads it as the later of the two. So a re-run of an
// unchanged site writes one item (META), not one per script.
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ScriptHistoryRow } from '@csp/shared/schemas/script-inventory';
import { scriptHistoryRowSchema } from '@csp/shared/schemas/script-inventory';
import { byCodeUnits } from '@csp/shared/text/order';
import {
  type AuthorizationRule,
  authorizationRuleSchema,
  type InventoryEntry,
  inventoryEntrySchema,
} from '@csp/shared/watch/inventory';
import * as z from 'zod';
import { batchDelete, batchGet, batchPut } from './batch';
import { type Db, isConditionFailure } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import {
  SCRIPT_ENTRY_SK_PREFIX,
  SCRIPT_RULE_SK_PREFIX,
  scriptEntryKey,
  scriptFieldCounterKey,
  scriptHistoryKey,
  scriptHistoryPartition,
  scriptHistoryPrefix,
  scriptInventoryMetaKey,
  scriptInventoryPartition,
  scriptRuleKey,
} from './keys';
import { queryTable } from './query';

const storedEntrySchema = inventoryEntrySchema.extend({ rev: z.number().int().nonnegative() });
export type StoredEntry = z.infer<typeof storedEntrySchema>;
const entryFromItem = itemReader(storedEntrySchema);
const ruleFromItem = itemReader(authorizationRuleSchema);

const metaSchema = z.object({
  lastRunAt: z.string(),
  analysisId: z.string(),
  rev: z.number().int().nonnegative(),
});
export type InventoryMeta = z.infer<typeof metaSchema>;
const metaFromItem = itemReader(metaSchema);
const historyFromItem = itemReader(scriptHistoryRowSchema);

/** Another writer changed an item between our read and our write: reload and try again. */
export class InventoryConflict extends Error {
  constructor() {
    super('The script inventory changed while it was being written');
  }
}

export interface Inventory {
  entries: StoredEntry[];
  rules: AuthorizationRule[];
  meta: InventoryMeta | null;
}

/** A stored entry as it is now: a script that is not removed was seen by the last run (see the header). */
export function effectiveEntry(entry: StoredEntry, meta: InventoryMeta | null): StoredEntry {
  if (!meta || entry.state === 'removed' || entry.seenBy !== 'crawl' || entry.lastSeen >= meta.lastRunAt)
    return entry;
  return {
    ...entry,
    lastSeen: meta.lastRunAt,
    digests: entry.digests.map((d) =>
      d.digest === entry.digest && d.lastSeen < meta.lastRunAt ? { ...d, lastSeen: meta.lastRunAt } : d,
    ),
  };
}

/** The whole inventory of a domain (strongly consistent: what is written next is decided on it). */
export async function loadInventory(db: Db, domainId: string): Promise<Inventory> {
  const entries: StoredEntry[] = [];
  const rules: AuthorizationRule[] = [];
  let meta: InventoryMeta | null = null;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :p',
        ExpressionAttributeValues: { ':p': scriptInventoryPartition(domainId) },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    for (const item of res.Items ?? []) {
      const sk = String(item.sk);
      if (sk.startsWith(SCRIPT_ENTRY_SK_PREFIX)) entries.push(entryFromItem(item));
      else if (sk.startsWith(SCRIPT_RULE_SK_PREFIX)) rules.push(ruleFromItem(item));
      else if (sk === scriptInventoryMetaKey(domainId).sk) meta = metaFromItem(item);
    }
    start = res.LastEvaluatedKey;
  } while (start);
  rules.sort((a, b) => byCodeUnits(a.id, b.id));
  return { entries: entries.map((e) => effectiveEntry(e, meta)), rules, meta };
}

/** Script items that exist, among `keys` (the field path checks a handful, not the whole inventory). */
export async function existingScriptKeys(db: Db, domainId: string, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const key of keys) {
    const res = await db.doc.send(
      new GetCommand({
        TableName: db.table,
        Key: scriptEntryKey(domainId, key),
        ProjectionExpression: 'pk',
      }),
    );
    if (res.Item) found.add(key);
  }
  return found;
}

const WRITE_CONCURRENCY = 8;

/**
 * Writes script entries, each only if it still has the rev it was read with (null: it must not exist yet).
 * Returns the keys written and whether one had changed meanwhile (that one and those after it are not
 * written: the caller rereads and folds again).
 */
export async function putScriptEntries(
  db: Db,
  domainId: string,
  writes: { entry: InventoryEntry; rev: number | null }[],
): Promise<{ written: Set<string>; conflict: boolean }> {
  const written = new Set<string>();
  let conflict = false;
  let next = 0;
  const worker = async () => {
    while (next < writes.length && !conflict) {
      const { entry, rev } = writes[next++]!;
      try {
        await db.doc.send(
          new PutCommand({
            TableName: db.table,
            Item: { ...scriptEntryKey(domainId, entry.key), ...entry, rev: (rev ?? -1) + 1 },
            ...(rev === null
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': rev } }),
          }),
        );
        written.add(entry.key);
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        conflict = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, writes.length) }, worker));
  return { written, conflict };
}

/** Notes the run folded in last (conditional on the META read, so two runs folded at once do not mix). */
export async function putInventoryMeta(
  db: Db,
  domainId: string,
  run: { lastRunAt: string; analysisId: string },
  previous: InventoryMeta | null,
): Promise<void> {
  try {
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: { ...scriptInventoryMetaKey(domainId), ...run, rev: (previous?.rev ?? -1) + 1 },
        ...(previous
          ? { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': previous.rev } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) throw new InventoryConflict();
    throw err;
  }
}

/**
 * A history row's id: newId's time part, then the row's place in its batch (rows of one moment keep the order
 * they were written in: a change before the "pending again" it caused), then random characters.
 */
const historyId = (ms: number, index: number) =>
  `${newId(ms).slice(0, 10)}${index.toString(32).padStart(4, '0')}${newId(ms).slice(14)}`;

export type NewHistoryRow = Omit<ScriptHistoryRow, 'id'>;

/** A history row with every field not given set to null. */
export function historyRow(row: Pick<NewHistoryRow, 'type' | 'at'> & Partial<NewHistoryRow>): NewHistoryRow {
  return {
    scriptKey: null,
    ruleId: null,
    analysisId: null,
    by: null,
    byName: null,
    justification: null,
    digest: null,
    before: null,
    state: null,
    anyContent: null,
    pattern: null,
    ...row,
  };
}

/** Appends rows to the domain's history. Each gets a new id; none replaces an existing row. */
export async function appendScriptHistory(db: Db, domainId: string, rows: NewHistoryRow[]): Promise<void> {
  const items = rows.map((row, i) => {
    const id = historyId(Date.parse(row.at) || Date.now(), i);
    const about = row.scriptKey !== null ? { scriptKey: row.scriptKey } : { ruleId: row.ruleId ?? '' };
    return { ...scriptHistoryKey(domainId, about, id), ...row, id };
  });
  if (items.length === 1) {
    // The common case for a person's action: one conditional put, so even an id collision cannot overwrite.
    await db.doc.send(
      new PutCommand({
        TableName: db.table,
        Item: items[0],
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return;
  }
  // Many rows (a run's): ids are 80 random bits each, a collision is not a concern worth a write per row.
  await batchPut(db, items);
}

/** One script's history, newest first. */
export async function listScriptHistory(
  db: Db,
  domainId: string,
  scriptKey: string,
  limit: number,
): Promise<ScriptHistoryRow[]> {
  const res = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      KeyConditionExpression: 'pk = :p AND begins_with(sk, :s)',
      ExpressionAttributeValues: {
        ':p': scriptHistoryPartition(domainId),
        ':s': scriptHistoryPrefix({ scriptKey }),
      },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (res.Items ?? []).map(historyFromItem);
}

/**
 * Every history row of a domain between two times (ISO, inclusive), oldest first: scripts' and rules' rows
 * together, for an assessor's export. Rows of one moment keep their written order (their ids sort so).
 */
export async function listDomainScriptHistory(
  db: Db,
  domainId: string,
  period: { from: string; to: string },
): Promise<ScriptHistoryRow[]> {
  const rows: ScriptHistoryRow[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: 'pk = :p',
        FilterExpression: '#at BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: {
          ':p': scriptHistoryPartition(domainId),
          ':from': period.from,
          ':to': period.to,
        },
        ExclusiveStartKey: start,
      }),
    );
    rows.push(...(res.Items ?? []).map(historyFromItem));
    start = res.LastEvaluatedKey;
  } while (start);
  return rows.sort((a, b) => byCodeUnits(a.id, b.id));
}

export async function getScriptEntry(db: Db, domainId: string, key: string): Promise<StoredEntry | null> {
  const res = await db.doc.send(
    new GetCommand({ TableName: db.table, Key: scriptEntryKey(domainId, key), ConsistentRead: true }),
  );
  return res.Item ? entryFromItem(res.Item) : null;
}

/** Several scripts' entries in one read (BatchGetItem), by key; scripts without an entry are absent. */
export async function getScriptEntries(
  db: Db,
  domainId: string,
  keys: readonly string[],
): Promise<Map<string, StoredEntry>> {
  const items = await batchGet(
    db,
    keys.map((key) => scriptEntryKey(domainId, key)),
    { consistent: true },
  );
  return new Map(items.map((item) => entryFromItem(item)).map((entry) => [entry.key, entry]));
}

export async function putScriptRule(db: Db, domainId: string, rule: AuthorizationRule): Promise<void> {
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...scriptRuleKey(domainId, rule.id), ...rule },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

/** Deletes a rule; false when the domain has no such rule. */
export async function deleteScriptRule(db: Db, domainId: string, ruleId: string): Promise<boolean> {
  try {
    await db.doc.send(
      new DeleteCommand({
        TableName: db.table,
        Key: scriptRuleKey(domainId, ruleId),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Everything of a domain's inventory, history included (the domain's deletion, and so its owner's). */
export async function deleteDomainScriptInventory(db: Db, domainId: string): Promise<void> {
  await batchDelete(db, await queryTable(db, scriptInventoryPartition(domainId)));
  await batchDelete(db, await queryTable(db, scriptHistoryPartition(domainId)));
}

/**
 * Takes `n` places for scripts only the field reported, within `max` per domain: false (nothing taken) when
 * they do not fit, so a flood of reports naming made-up scripts cannot grow the inventory without end.
 */
export async function reserveFieldScripts(
  db: Db,
  domainId: string,
  n: number,
  max: number,
): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: scriptFieldCounterKey(domainId),
        UpdateExpression: 'ADD fieldScripts :n',
        ConditionExpression: 'attribute_not_exists(fieldScripts) OR fieldScripts <= :room',
        ExpressionAttributeValues: { ':n': n, ':room': max - n },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
