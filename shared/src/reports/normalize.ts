// From what a browser POSTs to one list of reports. Two formats (spec section 5; Reporting API): the
// `{"csp-report": {...}}` object of report-uri, and the Reporting API's array of typed reports. Only the
// shape is checked here; noise (extensions, other sites, repeats) is decided in noise.ts. Besides CSP
// violations the Reporting API's field-hash types are read (schemas/field-report.ts); other types are counted.
import type * as z from 'zod';
import { cspHashBodySchema, type FieldReport, integrityViolationBodySchema } from '../schemas/field-report';
import {
  legacyReportBodySchema,
  type NormalizedReport,
  reportInteger,
  reportingApiBodySchema,
  reportingApiEntrySchema,
  reportText,
} from '../schemas/report';
import { FIELD_HASH_LIMITS, REPORT_LIMITS } from './limits';

const L = REPORT_LIMITS;

/** The body cannot be read as reports: the handler answers 400 with this message. */
export class ReportBodyError extends Error {}

export interface ParsedReports {
  reports: NormalizedReport[];
  /** `csp-hash` and `integrity-violation` entries (field hashes). */
  fieldReports: FieldReport[];
  /** Reporting API entries of another type (deprecation, intervention…): counted and dropped. */
  otherTypes: number;
}

/** Which body a content type announces; null: not a report format. */
export function reportFormat(contentType: string | undefined): 'single' | 'batch' | null {
  // The spellings browsers send, as they send them, without splitting and lowercasing a copy.
  if (contentType === 'application/csp-report') return 'single';
  if (contentType === 'application/reports+json') return 'batch';
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
 * Keywords browsers write in blocked-uri instead of a URL, in one spelling. A Map: the key is what a
 * browser (or anyone) sent, and a plain object would answer `constructor` with a function.
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

// Every report is read by hand first, with the schema's own field rules (reportText, reportInteger): the
// schemas cost the report endpoint a fifth of its rate. Anything the hand-written reading does not accept
// as it stands goes through the schema, which refuses it with its message (or accepts it: the schema has
// the last word). normalize.test.ts checks both give the same on a corpus of good and bad bodies.

type Fields = Record<string, unknown>;

/** What zod's z.object accepts as an object. */
function isFields(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A required field as the schemas read it (a non-empty string, cut to `max`), or null. */
function requiredText(v: unknown, max: number): string | null {
  return typeof v === 'string' && v !== '' ? v.slice(0, max) : null;
}

/**
 * A legacy report's fields, or null when the schema has to say what is wrong with them. This and the two
 * below are exported for the test that holds them to the schemas.
 */
export function legacyFields(raw: unknown): LegacyReport | null {
  if (!isFields(raw)) return null;
  const r = raw['csp-report'];
  if (!isFields(r)) return null;
  const documentUri = requiredText(r['document-uri'], L.maxUrlChars);
  const violatedDirective = requiredText(r['violated-directive'], L.maxDirectiveChars);
  if (documentUri === null || violatedDirective === null) return null;
  return {
    'document-uri': documentUri,
    'violated-directive': violatedDirective,
    referrer: reportText(r.referrer, L.maxUrlChars),
    'effective-directive': reportText(r['effective-directive'], L.maxDirectiveChars),
    'original-policy': reportText(r['original-policy'], L.maxPolicyChars),
    disposition: reportText(r.disposition, 16),
    'blocked-uri': reportText(r['blocked-uri'], L.maxUrlChars),
    'status-code': reportInteger(r['status-code']),
    'script-sample': reportText(r['script-sample'], L.maxSampleChars),
    'line-number': reportInteger(r['line-number']),
    'column-number': reportInteger(r['column-number']),
    'source-file': reportText(r['source-file'], L.maxUrlChars),
  };
}

type LegacyReport = z.output<typeof legacyReportBodySchema>['csp-report'];
type ReportingApiEntry = z.output<typeof reportingApiEntrySchema>;
type ReportingApiBody = z.output<typeof reportingApiBodySchema>;

function legacyReport(raw: unknown): LegacyReport {
  const fast = legacyFields(raw);
  if (fast) return fast;
  const parsed = legacyReportBodySchema.safeParse(raw);
  if (!parsed.success) throw new ReportBodyError(firstIssue(parsed.error));
  return parsed.data['csp-report'];
}

function fromLegacy(raw: unknown, receivedAt: string, userAgent: string | undefined): NormalizedReport {
  const r = legacyReport(raw);
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
    reportedAt: receivedAt,
  };
}

/** A Reporting API entry's fields, or null when the schema has to say what is wrong with them. */
export function reportingApiEntryFields(raw: unknown): ReportingApiEntry | null {
  // The schema's z.unknown() body must still be there.
  if (!isFields(raw) || typeof raw.type !== 'string' || raw.body === undefined) return null;
  return {
    type: raw.type,
    url: reportText(raw.url, L.maxUrlChars),
    age: reportInteger(raw.age),
    user_agent: reportText(raw.user_agent, L.maxUserAgentChars),
    body: raw.body,
  };
}

/** A csp-violation entry's body fields, or null when the schema has to say what is wrong with them. */
export function reportingApiBodyFields(raw: unknown): ReportingApiBody | null {
  if (!isFields(raw)) return null;
  const documentURL = requiredText(raw.documentURL, L.maxUrlChars);
  const effectiveDirective = requiredText(raw.effectiveDirective, L.maxDirectiveChars);
  if (documentURL === null || effectiveDirective === null) return null;
  return {
    documentURL,
    effectiveDirective,
    blockedURL: reportText(raw.blockedURL, L.maxUrlChars),
    referrer: reportText(raw.referrer, L.maxUrlChars),
    originalPolicy: reportText(raw.originalPolicy, L.maxPolicyChars),
    disposition: reportText(raw.disposition, 16),
    sample: reportText(raw.sample, L.maxSampleChars),
    sourceFile: reportText(raw.sourceFile, L.maxUrlChars),
    lineNumber: reportInteger(raw.lineNumber),
    columnNumber: reportInteger(raw.columnNumber),
    statusCode: reportInteger(raw.statusCode),
  };
}

function reportingApiEntry(raw: unknown, index: number): ReportingApiEntry {
  const fast = reportingApiEntryFields(raw);
  if (fast) return fast;
  const entry = reportingApiEntrySchema.safeParse(raw);
  if (!entry.success) throw new ReportBodyError(`Report ${index + 1}: ${firstIssue(entry.error)}`);
  return entry.data;
}

function reportingApiBody(raw: unknown, index: number): ReportingApiBody {
  const fast = reportingApiBodyFields(raw);
  if (fast) return fast;
  const body = reportingApiBodySchema.safeParse(raw);
  if (!body.success) throw new ReportBodyError(`Report ${index + 1}: ${firstIssue(body.error)}`);
  return body.data;
}

/** When the browser saw it: age is milliseconds between the event and the upload (a day at most). */
function reportedAt(entry: ReportingApiEntry, receivedAt: Date): string {
  const age = Math.min(entry.age ?? 0, 24 * 3600 * 1000);
  return new Date(receivedAt.getTime() - age).toISOString();
}

/** A digest of the other algorithms CSP knows, as a browser writes it (base64 of 48 or 64 bytes). */
const OTHER_ALGORITHM_DIGEST = /^(sha384-[A-Za-z0-9+/]{64}|sha512-[A-Za-z0-9+/]{86}==)$/;

/** A csp-hash or integrity-violation entry; null when it is about something else than a script (other-type). */
function fieldReport(entry: ReportingApiEntry, index: number, receivedAt: Date): FieldReport | null {
  if (entry.type === 'csp-hash') {
    // 'report-sha384' and 'report-sha512' exist too (a policy the product did not write): not ours to
    // count, and no reason to refuse the CSP reports of their batch.
    if (isFields(entry.body) && OTHER_ALGORITHM_DIGEST.test(String(entry.body.hash))) return null;
    const parsed = cspHashBodySchema.safeParse(entry.body);
    if (!parsed.success) throw new ReportBodyError(`Report ${index + 1}: ${firstIssue(parsed.error)}`);
    const b = parsed.data;
    if (b.destination !== FIELD_HASH_LIMITS.destination) return null;
    if (b.type !== undefined && b.type !== 'subresource') return null;
    return {
      kind: 'hash',
      documentUri: b.documentURL,
      scriptUrl: b.subresourceURL,
      digest: b.hash,
      reportedAt: reportedAt(entry, receivedAt),
    };
  }
  const parsed = integrityViolationBodySchema.safeParse(entry.body);
  if (!parsed.success) throw new ReportBodyError(`Report ${index + 1}: ${firstIssue(parsed.error)}`);
  const b = parsed.data;
  if (b.destination !== FIELD_HASH_LIMITS.destination) return null;
  return {
    kind: 'integrity',
    documentUri: b.documentURL,
    scriptUrl: b.blockedURL,
    reportOnly: b.reportOnly ?? false,
    reportedAt: reportedAt(entry, receivedAt),
  };
}

function fromReportingApi(
  raw: unknown,
  index: number,
  receivedAt: Date,
): NormalizedReport | FieldReport | null {
  const entry = reportingApiEntry(raw, index);
  if (entry.type === 'csp-hash' || entry.type === 'integrity-violation') {
    return fieldReport(entry, index, receivedAt);
  }
  if (entry.type !== 'csp-violation') return null;
  const b = reportingApiBody(entry.body, index);
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
    userAgent: entry.user_agent,
    reportedAt: reportedAt(entry, receivedAt),
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
    const parsed: ParsedReports = { reports: [], fieldReports: [], otherTypes: 0 };
    body.forEach((entry, i) => {
      add(parsed, fromReportingApi(entry, i, opts.receivedAt));
    });
    return parsed;
  }
  if (body && typeof body === 'object' && 'type' in body && 'body' in body) {
    const parsed: ParsedReports = { reports: [], fieldReports: [], otherTypes: 0 };
    add(parsed, fromReportingApi(body, 0, opts.receivedAt));
    return parsed;
  }
  return {
    reports: [fromLegacy(body, opts.receivedAt.toISOString(), opts.userAgent)],
    fieldReports: [],
    otherTypes: 0,
  };
}

function add(parsed: ParsedReports, r: NormalizedReport | FieldReport | null): void {
  if (r === null) parsed.otherTypes += 1;
  else if ('kind' in r) parsed.fieldReports.push(r);
  else parsed.reports.push(r);
}

/** JSON.parse with the handler's error message. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ReportBodyError('Malformed JSON body');
  }
}
