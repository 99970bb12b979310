// From what a browser POSTs to one list of reports. Two formats (spec section 5; Reporting API): the
// `{"csp-report": {...}}` object of report-uri, and the Reporting API's array of typed reports. Only the
// shape is checked here; noise (extensions, other sites, repeats) is decided in noise.ts.
import {
  legacyReportBodySchema,
  type NormalizedReport,
  reportingApiBodySchema,
  reportingApiEntrySchema,
} from '../schemas/report';
import { REPORT_LIMITS } from './limits';

/** The body cannot be read as reports: the handler answers 400 with this message. */
export class ReportBodyError extends Error {}

export interface ParsedReports {
  reports: NormalizedReport[];
  /** Reporting API entries of another type (deprecation, intervention…): counted and dropped. */
  otherTypes: number;
}

/** Which body a content type announces; null: not a report format. */
export function reportFormat(contentType: string | undefined): 'single' | 'batch' | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/csp-report' || type === 'application/json') return 'single';
  if (type === 'application/reports+json') return 'batch';
  return null;
}

export function maxBodyBytes(format: 'single' | 'batch'): number {
  return format === 'batch' ? REPORT_LIMITS.maxBatchBodyBytes : REPORT_LIMITS.maxSingleBodyBytes;
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues[0]?.message ?? 'The report is not valid';
}

/**
 * Keywords browsers write in blocked-uri instead of a URL, in one spelling. A Map: blocked-uri is the
 * browser's (or an attacker's) text, and `constructor` or `__proto__` must not find anything.
 */
const BLOCKED_KEYWORDS = new Map<string, string>([
  ['inline', 'inline'],
  ['eval', 'eval'],
  ['wasm-eval', 'wasm-eval'],
  ['self', 'self'],
  ['data', 'data:'],
  ['blob', 'blob:'],
  ['trusted-types-policy', 'trusted-types-policy'],
  ['trusted-types-sink', 'trusted-types-sink'],
]);

export function normalizeBlockedUri(raw: string | undefined): string {
  const v = (raw ?? '').trim();
  return BLOCKED_KEYWORDS.get(v.toLowerCase()) ?? v;
}

function fromLegacy(raw: unknown, receivedAt: Date, userAgent: string | undefined): NormalizedReport {
  const parsed = legacyReportBodySchema.safeParse(raw);
  if (!parsed.success) throw new ReportBodyError(firstIssue(parsed.error));
  const r = parsed.data['csp-report'];
  return {
    documentUri: r['document-uri'],
    referrer: r.referrer,
    blockedUri: normalizeBlockedUri(r['blocked-uri']),
    violatedDirective: r['violated-directive'],
    effectiveDirective: r['effective-directive'],
    originalPolicy: r['original-policy'],
    disposition: r.disposition,
    statusCode: r['status-code'],
    scriptSample: r['script-sample'],
    lineNumber: r['line-number'],
    columnNumber: r['column-number'],
    sourceFile: r['source-file'],
    userAgent: userAgent?.slice(0, REPORT_LIMITS.maxUserAgentChars),
    reportedAt: receivedAt.toISOString(),
  };
}

function fromReportingApi(raw: unknown, index: number, receivedAt: Date): NormalizedReport | null {
  const entry = reportingApiEntrySchema.safeParse(raw);
  if (!entry.success) throw new ReportBodyError(`Report ${index + 1}: ${firstIssue(entry.error)}`);
  if (entry.data.type !== 'csp-violation') return null;
  const body = reportingApiBodySchema.safeParse(entry.data.body);
  if (!body.success) throw new ReportBodyError(`Report ${index + 1}: ${firstIssue(body.error)}`);
  const b = body.data;
  // age: milliseconds between the violation and the upload (a day at most: older is not believable).
  const age = Math.min(entry.data.age ?? 0, 24 * 3600 * 1000);
  return {
    documentUri: b.documentURL,
    referrer: b.referrer,
    blockedUri: normalizeBlockedUri(b.blockedURL),
    // The Reporting API has no violated-directive: the effective directive is what was violated.
    violatedDirective: b.effectiveDirective,
    effectiveDirective: b.effectiveDirective,
    originalPolicy: b.originalPolicy,
    disposition: b.disposition,
    statusCode: b.statusCode,
    scriptSample: b.sample,
    lineNumber: b.lineNumber,
    columnNumber: b.columnNumber,
    sourceFile: b.sourceFile,
    userAgent: entry.data.user_agent,
    reportedAt: new Date(receivedAt.getTime() - age).toISOString(),
  };
}

/**
 * Reads a parsed JSON body. A single report may also arrive as a one-element Reporting API array and the
 * other way round: the body's shape decides, the content type only bounds the size.
 */
export function parseReports(
  body: unknown,
  opts: { receivedAt: Date; userAgent?: string | undefined },
): ParsedReports {
  if (Array.isArray(body)) {
    if (body.length === 0) throw new ReportBodyError('The report list is empty');
    if (body.length > REPORT_LIMITS.maxReportsPerBatch) {
      throw new ReportBodyError(`A batch may hold ${REPORT_LIMITS.maxReportsPerBatch} reports at most`);
    }
    const reports: NormalizedReport[] = [];
    let otherTypes = 0;
    body.forEach((entry, i) => {
      const r = fromReportingApi(entry, i, opts.receivedAt);
      if (r) reports.push(r);
      else otherTypes += 1;
    });
    return { reports, otherTypes };
  }
  if (body && typeof body === 'object' && 'type' in body && 'body' in body) {
    const r = fromReportingApi(body, 0, opts.receivedAt);
    return r ? { reports: [r], otherTypes: 0 } : { reports: [], otherTypes: 1 };
  }
  return { reports: [fromLegacy(body, opts.receivedAt, opts.userAgent)], otherTypes: 0 };
}

/** JSON.parse with the handler's error message. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ReportBodyError('Malformed JSON body');
  }
}
