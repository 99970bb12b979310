// Stored violation reports (spec uri_reports) and the distinct policies they were sent under. Raw reports
// expire after REPORT_LIMITS.retentionDays (DynamoDB TTL); their counts live in report-counts.ts.
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import { type UriReport, uriReportSchema } from '@csp/shared/schemas/report';
import * as z from 'zod';
import { batchGet, batchPut } from './batch';
import { type Db, epochSeconds } from './db';
import { idFloor } from './ids';
import { domainReportsPartition, reportIndexes, reportKey, reportPolicyKey } from './keys';

const DAY_SECONDS = 24 * 3600;
export const retentionExpiry = (fromMs: number) =>
  epochSeconds(fromMs) + REPORT_LIMITS.retentionDays * DAY_SECONDS;

/** A report as stored: the entity without the policy text (kept once per policy, by hash). */
const storedReportSchema = uriReportSchema.omit({ originalPolicy: true });
export type StoredReport = z.infer<typeof storedReportSchema>;

/** The one place a stored report item becomes a typed value. */
export function fromItem(item: Record<string, unknown>): StoredReport {
  return storedReportSchema.parse(item);
}

export function reportItem(report: StoredReport): Record<string, unknown> {
  return {
    ...reportKey(report.id),
    ...reportIndexes(report.domainId, report.id),
    ...report,
    expiresAt: retentionExpiry(Date.parse(report.reportedAt)),
  };
}

export async function putReports(db: Db, reports: StoredReport[]): Promise<void> {
  await batchPut(db, reports.map(reportItem));
}

export async function putPolicies(db: Db, domainId: string, policies: Map<string, string>): Promise<void> {
  const expiresAt = retentionExpiry(Date.now());
  await batchPut(
    db,
    [...policies].map(([hash, policy]) => ({ ...reportPolicyKey(domainId, hash), policy, expiresAt })),
  );
}

export async function getReport(db: Db, id: string): Promise<StoredReport | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: reportKey(id) }));
  return res.Item ? fromItem(res.Item) : null;
}

/** The cursor of the next page: the last key read, opaque to clients. */
const cursorSchema = z.object({
  pk: z.string(),
  sk: z.literal('REPORT'),
  gsi2pk: z.string(),
  gsi2sk: z.string(),
});

export class InvalidCursorError extends Error {}

function decodeCursor(cursor: string, domainId: string): Record<string, string> {
  try {
    const key = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    if (key.gsi2pk !== domainReportsPartition(domainId)) throw new Error('other domain');
    return key;
  } catch {
    throw new InvalidCursorError('cursor is not valid');
  }
}

/** One page of a domain's reports since `sinceMs`, newest first: one Query, never a Scan. */
export async function listDomainReports(
  db: Db,
  domainId: string,
  opts: { sinceMs: number; limit: number; cursor?: string | undefined },
): Promise<{ reports: UriReport[]; nextCursor: string | null }> {
  const res = await db.doc.send(
    new QueryCommand({
      TableName: db.table,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p AND gsi2sk >= :since',
      ExpressionAttributeValues: { ':p': domainReportsPartition(domainId), ':since': idFloor(opts.sinceMs) },
      ScanIndexForward: false,
      Limit: opts.limit,
      ...(opts.cursor ? { ExclusiveStartKey: decodeCursor(opts.cursor, domainId) } : {}),
    }),
  );
  const stored = (res.Items ?? []).map(fromItem);
  const hashes = [...new Set(stored.flatMap((r) => (r.originalPolicyHash ? [r.originalPolicyHash] : [])))];
  const policies = new Map(
    (
      await batchGet(
        db,
        hashes.map((h) => reportPolicyKey(domainId, h)),
      )
    ).map((i) => [i.sk as string, i.policy as string]),
  );
  const reports: UriReport[] = [];
  let bytes = 0;
  for (const r of stored) {
    const report = {
      ...r,
      originalPolicy: r.originalPolicyHash ? (policies.get(r.originalPolicyHash) ?? null) : null,
    };
    bytes += Buffer.byteLength(JSON.stringify(report));
    // Reports are attacker-sized: a page ends at its byte budget (at least one report a page).
    if (reports.length > 0 && bytes > REPORT_LIMITS.maxListPageBytes) break;
    reports.push(report);
  }
  const cut = reports.length < stored.length ? reports.at(-1) : undefined;
  const last = cut ? { ...reportKey(cut.id), ...reportIndexes(domainId, cut.id) } : res.LastEvaluatedKey;
  return {
    reports,
    nextCursor: last ? Buffer.from(JSON.stringify(last)).toString('base64url') : null,
  };
}

/** Every report of the window (for suggestions), newest first, up to `max`. */
export async function recentDomainReports(db: Db, domainId: string, sinceMs: number, max: number) {
  const out: StoredReport[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :p AND gsi2sk >= :since',
        ExpressionAttributeValues: { ':p': domainReportsPartition(domainId), ':since': idFloor(sinceMs) },
        ScanIndexForward: false,
        Limit: Math.min(200, max - out.length),
        ExclusiveStartKey: start,
      }),
    );
    out.push(...(res.Items ?? []).map(fromItem));
    start = res.LastEvaluatedKey;
  } while (start && out.length < max);
  return out;
}

export async function deleteReportItem(db: Db, id: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: reportKey(id) }));
}
