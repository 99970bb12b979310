// The owner's view of a domain's report counts: a window of hours read back, per group (from the sharded
// counters) and per hour (received, kept, dropped). The consumer writes them (report-counts.ts); these are
// the reads the reports API answers with: small items, read by Query over the window's hours, never a Scan.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type DropReason, REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { DropCounts, ReportGroupCount } from '@csp/shared/schemas/report';
import { byCodeUnits } from '@csp/shared/text/order';
import * as z from 'zod';
import type { Db } from './db';
import { parseReportCountSk, reportCountPartition, reportStatsPartition } from './keys';

const statsItemSchema = z
  .object({ sk: z.string(), received: z.number().default(0), kept: z.number().default(0) })
  .catchall(z.unknown());

const hourRange = (fromHour: string, toHour: string) => ({
  cond: 'sk BETWEEN :from AND :to',
  values: { ':from': fromHour, ':to': `${toHour}\uffff` },
});

async function queryAll(
  db: Db,
  pk: string,
  fromHour: string,
  toHour: string,
  projection?: { expression: string },
) {
  const r = hourRange(fromHour, toHour);
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        KeyConditionExpression: `pk = :p AND ${r.cond}`,
        ExpressionAttributeValues: { ':p': pk, ...r.values },
        ...(projection ? { ProjectionExpression: projection.expression } : {}),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

export interface WindowCounts {
  /** Every group counted individually, most reported first. */
  groups: ReportGroupCount[];
  /** Reports of sources beyond an hour's cap of new groups: counted in total only. */
  overCap: number;
}

/** Exact counts per group over the hours given (one Query per shard), most reported first. */
export async function windowCounts(
  db: Db,
  domainId: string,
  fromHour: string,
  toHour: string,
): Promise<WindowCounts> {
  const shards = Array.from({ length: REPORT_LIMITS.counterShards }, (_, s) => s);
  const items = (
    await Promise.all(
      shards.map((s) =>
        queryAll(db, reportCountPartition(domainId, s), fromHour, toHour, COUNTER_PROJECTION),
      ),
    )
  ).flat();
  // Keyed by the sort key without its hour: the group's bounded identity (a long source is a digest there).
  const groups = new Map<
    string,
    { directive: string; source: string; count: number; fs: number; ls: number }
  >();
  let overCap = 0;
  for (const item of items) {
    const hits = Number(item.hits ?? 0);
    if (!(hits > 0)) continue;
    const sk = String(item.sk);
    if (sk.endsWith('~OTHER')) {
      overCap += hits;
      continue;
    }
    const parsed = parseReportCountSk(sk);
    if (!parsed) continue;
    const key = sk.slice(14);
    const fs = Number(item.fs);
    const ls = Number(item.ls);
    const g = groups.get(key);
    if (!g) {
      groups.set(key, {
        directive: parsed.directive ?? String(item.dtext ?? ''),
        source: parsed.source ?? String(item.stext ?? ''),
        count: hits,
        fs,
        ls,
      });
      continue;
    }
    g.count += hits;
    if (fs < g.fs) g.fs = fs;
    if (ls > g.ls) g.ls = ls;
  }
  return {
    groups: [...groups.values()]
      .sort(
        (a, b) =>
          b.count - a.count || byCodeUnits(a.directive, b.directive) || byCodeUnits(a.source, b.source),
      )
      .map((g) => ({
        directive: g.directive,
        source: g.source,
        count: g.count,
        firstSeen: new Date(g.fs).toISOString(),
        lastSeen: new Date(g.ls).toISOString(),
      })),
    overCap,
  };
}

/** What a window's counts are read with: the key, the hits, the first and last report (and rare texts). */
const COUNTER_PROJECTION = { expression: 'sk, hits, fs, ls, dtext, stext' };

export interface HourStats {
  hour: string;
  received: number;
  stored: number;
  dropped: DropCounts;
}

/** Received, kept and dropped per hour over the hours given: one Query. */
export async function windowStats(
  db: Db,
  domainId: string,
  fromHour: string,
  toHour: string,
): Promise<HourStats[]> {
  const items = await queryAll(db, reportStatsPartition(domainId), fromHour, toHour);
  return items.map((raw) => {
    const item = statsItemSchema.parse(raw);
    const dropped: DropCounts = {};
    for (const [k, v] of Object.entries(item)) {
      if (!k.startsWith('d_') || typeof v !== 'number' || v <= 0) continue;
      dropped[k.slice(2).replace(/_/g, '-') as DropReason] = v;
    }
    return { hour: item.sk, received: Math.max(0, item.received), stored: Math.max(0, item.kept), dropped };
  });
}
