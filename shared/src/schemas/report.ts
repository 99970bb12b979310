// Violation reports (spec sections 3 uri_reports, 5, 7, 9): what browsers send, what the queue carries,
// what the owner API answers, and the suggestions made from them.
import * as z from 'zod';
import { engineSchema } from '../csp/engines/table';
import { engineCountsSchema } from '../csp/engines/user-agent';
import { DROP_REASONS, REPORT_LIMITS } from '../reports/limits';
import { fieldReportSchema } from './field-report';

const L = REPORT_LIMITS;

/**
 * Text from a browser (or an attacker): any JSON scalar becomes a string, cut to `max` characters; null
 * and absent are absent. The report handler's fast path (reports/normalize.ts) reads fields with it too.
 */
export function reportText(v: unknown, max: number): string | undefined {
  if (v === null || v === undefined) return undefined;
  return (typeof v === 'object' ? JSON.stringify(v) : String(v)).slice(0, max);
}

/** Numbers may arrive as strings ("12"): they become integers; anything else is dropped, not refused. */
export function reportInteger(v: unknown): number | undefined {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0
    ? Math.min(Math.trunc(n), 2 ** 31 - 1)
    : undefined;
}

const text = (max: number) => z.preprocess((v) => reportText(v, max), z.string().optional());

const integer = z.preprocess(reportInteger, z.number().int().optional());

const required = (name: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.slice(0, max) : v),
    z.string({ message: `${name} is required` }).min(1, `${name} is required`),
  );

/** `{"csp-report": {...}}`, as Firefox and older browsers send with report-uri (spec section 5). */
export const legacyReportBodySchema = z.object(
  {
    'csp-report': z.object(
      {
        'document-uri': required('csp-report.document-uri', L.maxUrlChars),
        'violated-directive': required('csp-report.violated-directive', L.maxDirectiveChars),
        referrer: text(L.maxUrlChars),
        'effective-directive': text(L.maxDirectiveChars),
        'original-policy': text(L.maxPolicyChars),
        disposition: text(16),
        'blocked-uri': text(L.maxUrlChars),
        'status-code': integer,
        'script-sample': text(L.maxSampleChars),
        'line-number': integer,
        'column-number': integer,
        'source-file': text(L.maxUrlChars),
      },
      { message: 'csp-report must be an object' },
    ),
  },
  { message: 'The body must be a JSON object with a csp-report member' },
);

/** One entry of a Reporting API batch (application/reports+json). Only csp-violation entries are read. */
export const reportingApiEntrySchema = z.object({
  type: z.string({ message: 'Every report needs a type' }),
  url: text(L.maxUrlChars),
  age: integer,
  user_agent: text(L.maxUserAgentChars),
  body: z.unknown(),
});

export const reportingApiBodySchema = z.object(
  {
    documentURL: required('body.documentURL', L.maxUrlChars),
    effectiveDirective: required('body.effectiveDirective', L.maxDirectiveChars),
    blockedURL: text(L.maxUrlChars),
    referrer: text(L.maxUrlChars),
    originalPolicy: text(L.maxPolicyChars),
    disposition: text(16),
    sample: text(L.maxSampleChars),
    sourceFile: text(L.maxUrlChars),
    lineNumber: integer,
    columnNumber: integer,
    statusCode: integer,
  },
  { message: 'A csp-violation report needs a body object' },
);

/** A report as the ingest handler hands it to the queue: both formats, one shape. */
export const normalizedReportSchema = z.object({
  documentUri: z.string(),
  referrer: z.string().optional(),
  blockedUri: z.string(),
  violatedDirective: z.string(),
  effectiveDirective: z.string().optional(),
  originalPolicy: z.string().optional(),
  disposition: z.string().optional(),
  statusCode: z.number().int().optional(),
  scriptSample: z.string().optional(),
  lineNumber: z.number().int().optional(),
  columnNumber: z.number().int().optional(),
  sourceFile: z.string().optional(),
  userAgent: z.string().optional(),
  /** When the browser saw the violation (receipt time minus the Reporting API's age). */
  reportedAt: z.string(),
});
export type NormalizedReport = z.infer<typeof normalizedReportSchema>;

export const dropCountsSchema = z.partialRecord(z.enum(DROP_REASONS), z.number().int().min(0));
export type DropCounts = z.infer<typeof dropCountsSchema>;

/** One message of the report queue: the accepted reports of one request (or only counts of dropped ones). */
export const reportMessageSchema = z.object({
  domainId: z.string(),
  domainUuid: z.string(),
  receivedAt: z.string(),
  /** The client's address cut to its /24 (IPv4) or /48 (IPv6): the only form in which it is stored. */
  clientIp: z.string(),
  reports: z.array(normalizedReportSchema).max(L.maxReportsPerMessage),
  /** Field hashes (csp-hash, integrity-violation); absent in messages queued before they were read. */
  fieldReports: z.array(fieldReportSchema).max(L.maxReportsPerMessage).optional(),
  dropped: dropCountsSchema.default({}),
});
export type ReportMessage = z.infer<typeof reportMessageSchema>;

/**
 * A message that clears a domain's reports in the background (store/report-clear.ts): sent by the API when
 * the owner clears them or deletes the domain, and again by the consumer to itself while the job has more to
 * delete. jobId names the job it belongs to, so a message left over from a finished job does nothing.
 */
export const reportClearMessageSchema = z.object({
  kind: z.literal('clear'),
  domainId: z.string().min(1).max(64),
  jobId: z.string().min(1).max(64),
});
export type ReportClearMessage = z.infer<typeof reportClearMessageSchema>;

/**
 * What the report queue carries. Report messages have no `kind` (the ingest handler's shape, unchanged, so
 * messages queued before a deploy still read): a message is a report message unless it says otherwise.
 */
export const reportQueueMessageSchema = z.discriminatedUnion('kind', [
  reportClearMessageSchema,
  reportMessageSchema.extend({ kind: z.literal('report').optional() }),
]);
export type ReportQueueMessage = ReportClearMessage | ReportMessage;

/** A stored violation report (spec section 3 uri_reports), as the owner API returns it. */
export const uriReportSchema = z.object({
  id: z.string(),
  domainId: z.string(),
  domainUuid: z.string(),
  reportedUri: z.string(),
  blockedUri: z.string(),
  violatedDirective: z.string(),
  /** The policy in force, stored once per distinct policy (the report keeps its hash). */
  originalPolicy: z.string().nullable(),
  originalPolicyHash: z.string().nullable(),
  documentUri: z.string(),
  referrer: z.string().nullable(),
  statusCode: z.number().int().nullable(),
  scriptSample: z.string().nullable(),
  lineNumber: z.number().int().nullable(),
  columnNumber: z.number().int().nullable(),
  sourceFile: z.string().nullable(),
  userAgent: z.string().nullable(),
  clientIp: z.string().nullable(),
  disposition: z.string().nullable(),
  reportedAt: z.string(),
  createdAt: z.string(),
});
export type UriReport = z.infer<typeof uriReportSchema>;

export const reportWindowSchema = z.coerce
  .number({ message: 'days must be 1, 3 or 7' })
  .refine((d) => (L.windowsDays as readonly number[]).includes(d), 'days must be 1, 3 or 7')
  .default(L.defaultWindowDays);

export const reportListQuerySchema = z.object({
  days: reportWindowSchema,
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${L.maxPageSize}`)
    .max(L.maxPageSize, `limit must be between 1 and ${L.maxPageSize}`)
    .default(L.pageSize),
  cursor: z.string().max(512, 'cursor is not valid').optional(),
  /** Skips this many groups of the counts, most reported first (pages of REPORT_LIMITS.groupsShown). */
  groupOffset: z.coerce
    .number({ message: 'groupOffset must be a number' })
    .int('groupOffset must be a whole number')
    .min(0, 'groupOffset must be 0 or more')
    .max(1_000_000, 'groupOffset is too large')
    .default(0),
});

/**
 * What a list of groups leaves out: the groups beyond the ones answered ("N other reports in M groups"),
 * and the reports of new sources over an hour's cap, counted only in total.
 */
export const otherGroupsSchema = z.object({
  groups: z.number().int(),
  count: z.number().int(),
  overCap: z.number().int(),
});
export type OtherGroups = z.infer<typeof otherGroupsSchema>;

/** Exact count of one group (first word of the directive × blocked source) over the window. */
export const reportGroupCountSchema = z.object({
  directive: z.string(),
  source: z.string(),
  count: z.number().int(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type ReportGroupCount = z.infer<typeof reportGroupCountSchema>;

export const hourlyCountSchema = z.object({ hour: z.string(), count: z.number().int() });

export const reportListSchema = z.object({
  reports: z.array(uriReportSchema),
  /** Reports received in the window (exact, from the counters; the list itself may be sampled). */
  total: z.number().int(),
  /** Raw reports kept in the window (what the list pages through). */
  stored: z.number().int(),
  /** The window's groups, most reported first: REPORT_LIMITS.groupsShown at most, from groupOffset. */
  counts: z.array(reportGroupCountSchema),
  /** Groups counted individually in the window, and what `counts` leaves out. */
  groupTotal: z.number().int(),
  groupOffset: z.number().int(),
  other: otherGroupsSchema,
  /** Reports received per hour over the whole window, oldest first (hours without reports are 0). */
  hourly: z.array(hourlyCountSchema),
  dropped: dropCountsSchema,
  nextCursor: z.string().nullable(),
  days: z.number().int(),
  /** The domain's report-uri, to show how to install it. */
  endpoint: z.string(),
});
export type ReportList = z.infer<typeof reportListSchema>;

export const SUGGESTION_CLASSES = [
  'expected',
  'new-first-party',
  'new-third-party',
  'suspicious-inline',
] as const;
export const suggestionClassSchema = z.enum(SUGGESTION_CLASSES);
export type SuggestionClass = z.infer<typeof suggestionClassSchema>;

export const reportSuggestionSchema = z.object({
  directive: z.string(),
  /** The source to add to the directive (an origin, a scheme, a hash or a keyword). */
  source: z.string(),
  /** What was blocked: an origin, a scheme, 'inline' or 'eval'. */
  blocked: z.string(),
  count: z.number().int(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  /** A few pages the reports came from. */
  pages: z.array(z.string()),
  class: suggestionClassSchema,
  reason: z.string(),
  /** False for suspicious inline code: it must be reviewed, never accepted in one click. */
  acceptable: z.boolean(),
  /** Of the suggestion's stored reports (sampled, unlike `count`), how many each engine family sent. */
  engines: engineCountsSchema,
  /** Every stored report came from this engine: a miss only that engine has (e.g. "Firefox only"). */
  onlyEngine: engineSchema.nullable(),
});
export type ReportSuggestion = z.infer<typeof reportSuggestionSchema>;

export const reportSuggestionListSchema = z.object({
  suggestions: z.array(reportSuggestionSchema),
  /** The completed analysis the reports were compared with (null: no crawl yet). */
  analysisId: z.string().nullable(),
  days: z.number().int(),
  /** Suggestions come from the REPORT_LIMITS.groupsShown most reported groups: what they leave out. */
  other: otherGroupsSchema,
});
export type ReportSuggestionList = z.infer<typeof reportSuggestionListSchema>;

/** Clearing a domain's reports runs in the background: what the panel polls and shows. */
export const reportClearJobSchema = z.object({
  state: z.enum(['running', 'done']),
  /** What is being deleted now: the stored reports first, then the counts. */
  phase: z.enum(['reports', 'counts', 'done']),
  /** Items deleted so far (reports, stored policies and counters). */
  deleted: z.number().int(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ReportClearJob = z.infer<typeof reportClearJobSchema>;
