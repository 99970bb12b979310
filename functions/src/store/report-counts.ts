// Exact report counts: per directive × blocked source × hour (sharded by group), per domain and hour
// (received, kept, dropped), and the double-delivery guard. The consumer changes them only through
// applyCounts, one transaction per chunk, so counts and the guard move together or not at all. The owner's
// reads of a window of them are report-count-windows.ts'.
import { createHash } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { GroupHour } from '@csp/shared/reports/aggregate';
import { DROP_REASONS, type DropReason, REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { DropCounts } from '@csp/shared/schemas/report';
import { batchGet } from './batch';
import { type Db, epochSeconds } from './db';
import {
  parseReportCountSk,
  reportCountKey,
  reportGuardKey,
  reportOtherCountKey,
  reportStatsKey,
} from './keys';
import { retentionExpiry } from './reports';

export const hourStartMs = (hour: string) => Date.parse(`${hour}:00:00.000Z`);

/** The counter partition of a group: stable, so a group's hour is one item. */
export function counterShard(directive: string, source: string): number {
  return (
    createHash('sha256').update(`${directive}\n${source}`).digest().readUInt32BE(0) %
    REPORT_LIMITS.counterShards
  );
}

/** What the guard keeps of a queue message id: 8 bytes of its hash (a collision among one second's
 * messages of one domain is beyond 1 in 10^12). */
export const guardToken = (messageId: string) =>
  createHash('sha256').update(messageId).digest().subarray(0, 8).toString('base64url');

export interface CounterDelta extends GroupHour {
  shard: number;
}

/** Reports of one hour whose groups came after the hour's cap of new groups: one counter, exact in total. */
export interface OtherDelta {
  hour: string;
  hits: number;
  firstSeen: string;
  lastSeen: string;
}

export interface StatsDelta {
  received: number;
  stored: number;
  dropped: DropCounts;
  /** New groups this chunk counts individually (checked against REPORT_LIMITS.newGroupsPerDomainHour). */
  newGroups: number;
}

export interface GuardDelta {
  second: number;
  tokens: string[];
  /** Tokens of redelivered messages: the write fails if one is already there. */
  checked: string[];
}

const droppedAttribute = (reason: DropReason) => `d_${reason.replace(/-/g, '_')}`;

/** Hits already counted for these group-hours (eventually consistent: used to sample raw reports). */
export async function currentHits(
  db: Db,
  domainId: string,
  groups: CounterDelta[],
): Promise<Map<string, number>> {
  const items = await batchGet(
    db,
    groups.map((g) => reportCountKey(domainId, g.shard, g.hour, g.directive, g.source)),
  );
  return new Map(items.map((i) => [`${i.pk}|${i.sk}`, Number(i.hits ?? 0)]));
}
export const hitsKey = (domainId: string, g: CounterDelta) => {
  const k = reportCountKey(domainId, g.shard, g.hour, g.directive, g.source);
  return `${k.pk}|${k.sk}`;
};

export interface HourState {
  /** Raw reports kept this hour. */
  kept: number;
  /** Groups counted individually this hour. */
  groups: number;
}

/** Raw reports kept and groups counted in these hours of the domain (strongly consistent: the group cap
 * is checked against it). */
export async function currentHourState(
  db: Db,
  domainId: string,
  hours: string[],
): Promise<Map<string, HourState>> {
  const items = await batchGet(
    db,
    hours.map((h) => reportStatsKey(domainId, h)),
    { consistent: true },
  );
  return new Map(
    items.map((i) => [i.sk as string, { kept: Number(i.kept ?? 0), groups: Number(i.groups ?? 0) }]),
  );
}

/** Tokens of messages already counted, for the seconds given (strongly consistent). */
export async function countedTokens(db: Db, domainId: string, seconds: number[]): Promise<Set<string>> {
  const items = await batchGet(
    db,
    seconds.map((s) => reportGuardKey(domainId, s)),
    { consistent: true },
  );
  return new Set(items.flatMap((i) => [...((i.ids as Set<string> | undefined) ?? [])]));
}

/** Applies one chunk's counts and marks its messages counted, atomically (at most 100 items). */
export async function applyCounts(
  db: Db,
  domainId: string,
  delta: {
    counters: CounterDelta[];
    others: OtherDelta[];
    stats: Map<string, StatsDelta>;
    guards: GuardDelta[];
  },
): Promise<void> {
  const items: unknown[] = [];
  for (const o of delta.others) {
    items.push({
      Update: {
        TableName: db.table,
        Key: reportOtherCountKey(domainId, o.hour),
        UpdateExpression: 'ADD hits :n SET fs = if_not_exists(fs, :f), ls = :l, expiresAt = :e',
        ExpressionAttributeValues: {
          ':n': o.hits,
          ':f': Date.parse(o.firstSeen),
          ':l': Date.parse(o.lastSeen),
          ':e': retentionExpiry(hourStartMs(o.hour)),
        },
      },
    });
  }
  for (const g of delta.counters) {
    const { Key, text } = counterKeyAndText(domainId, g);
    const values: Record<string, unknown> = {
      ':n': g.hits,
      ':f': Date.parse(g.firstSeen),
      ':l': Date.parse(g.lastSeen),
      ':e': retentionExpiry(hourStartMs(g.hour)),
    };
    const sets = ['fs = if_not_exists(fs, :f)', 'ls = :l', 'expiresAt = :e'];
    for (const [name, value] of Object.entries(text)) {
      values[`:${name}`] = value;
      sets.push(`${name} = :${name}`);
    }
    items.push({
      Update: {
        TableName: db.table,
        Key,
        UpdateExpression: `ADD hits :n SET ${sets.join(', ')}`,
        ExpressionAttributeValues: values,
      },
    });
  }
  for (const [hour, s] of delta.stats) {
    const values: Record<string, unknown> = {
      ':r': s.received,
      ':k': s.stored,
      ':e': retentionExpiry(hourStartMs(hour)),
    };
    const adds = ['received :r', 'kept :k'];
    for (const reason of DROP_REASONS) {
      const n = s.dropped[reason];
      if (!n) continue;
      const v = `:${droppedAttribute(reason)}`;
      values[v] = n;
      adds.push(`${droppedAttribute(reason)} ${v}`);
    }
    // The hour's cap of new groups holds across concurrent consumers: the write fails when the groups
    // counted meanwhile leave no room, and the consumer decides again on what it reads then.
    let condition: string | undefined;
    if (s.newGroups > 0) {
      values[':g'] = s.newGroups;
      values[':room'] = REPORT_LIMITS.newGroupsPerDomainHour - s.newGroups;
      adds.push('groups :g');
      condition = 'attribute_not_exists(groups) OR groups <= :room';
    }
    items.push({
      Update: {
        TableName: db.table,
        Key: reportStatsKey(domainId, hour),
        UpdateExpression: `ADD ${adds.join(', ')} SET expiresAt = :e`,
        ExpressionAttributeValues: values,
        ...(condition ? { ConditionExpression: condition } : {}),
      },
    });
  }
  for (const g of delta.guards) {
    const values: Record<string, unknown> = {
      ':ids': new Set(g.tokens),
      // The guard only has to outlive redeliveries (SQS keeps a message 4 days at most).
      ':e': epochSeconds() + 5 * 24 * 3600,
    };
    const conditions = g.checked.map((t, i) => {
      values[`:c${i}`] = t;
      return `NOT contains(ids, :c${i})`;
    });
    items.push({
      Update: {
        TableName: db.table,
        Key: reportGuardKey(domainId, g.second),
        UpdateExpression: 'ADD ids :ids SET expiresAt = :e',
        ExpressionAttributeValues: values,
        ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
      },
    });
  }
  if (items.length === 0) return;
  if (items.length > 100)
    throw new Error(`A report chunk needs ${items.length} writes; 100 fit a transaction`);
  await db.doc.send(new TransactWriteCommand({ TransactItems: items as never }));
}

/**
 * A counter's key, and the text its key holds only as a digest (a long or odd directive or source): kept as
 * `dtext` / `stext`, the source cut to REPORT_LIMITS.maxGroupSourceChars. Everything else about a counter is
 * its hits and first and last report (`fs`, `ls`, epoch milliseconds): small items, quick to read in bulk.
 */
function counterKeyAndText(domainId: string, g: Omit<CounterDelta, 'hits' | 'firstSeen' | 'lastSeen'>) {
  const Key = reportCountKey(domainId, g.shard, g.hour, g.directive, g.source);
  const parsed = parseReportCountSk(Key.sk);
  const text: { dtext?: string; stext?: string } = {};
  if (parsed?.directive === null) text.dtext = g.directive.slice(0, REPORT_LIMITS.maxGroupSourceChars);
  if (parsed?.source === null) text.stext = g.source.slice(0, REPORT_LIMITS.maxGroupSourceChars);
  return { Key, text };
}

/** A counter item as the consumer leaves it (tests and the benchmark store many at once with it). */
export function counterItem(domainId: string, g: CounterDelta): Record<string, unknown> {
  const { Key, text } = counterKeyAndText(domainId, g);
  return {
    ...Key,
    ...text,
    hits: g.hits,
    fs: Date.parse(g.firstSeen),
    ls: Date.parse(g.lastSeen),
    expiresAt: retentionExpiry(hourStartMs(g.hour)),
  };
}

/** A deleted report leaves the counts too (the counter never goes below zero). */
export async function uncountReport(
  db: Db,
  domainId: string,
  g: Omit<CounterDelta, 'hits' | 'firstSeen' | 'lastSeen'>,
) {
  const update = (Key: { pk: string; sk: string }, expression: string) =>
    db.doc
      .send(
        new UpdateCommand({
          TableName: db.table,
          Key,
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':m': -1 },
        }),
      )
      .catch((err: { name?: string }) => {
        if (err?.name !== 'ConditionalCheckFailedException') throw err;
      });
  await Promise.all([
    update(reportCountKey(domainId, g.shard, g.hour, g.directive, g.source), 'ADD hits :m'),
    update(reportStatsKey(domainId, g.hour), 'ADD received :m, kept :m'),
  ]);
}
