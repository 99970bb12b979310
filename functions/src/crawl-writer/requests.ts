// What a crawler run may ask the crawl writer to do, and nothing else: report progress, fail its analysis,
// or complete it with its policies and findings. Each request names the analysis and carries the run's token;
// everything else the writer needs (the owner, the domain, which counters move) comes from the analysis item.
// The crawler runs hostile pages, so every field is bounded here: a request the schema refuses changes nothing.

import { policyFindingSchema } from '@csp/shared/csp/audit-schemas';
import { DIRECTIVE_TABLE } from '@csp/shared/csp/directives';
import { policyBudgetSchema, resourceStatsSchema } from '@csp/shared/csp/policy';
import { analysisStageSchema, captureSummarySchema, verificationSchema } from '@csp/shared/schemas/analysis';
import { crawledPagesSchema } from '@csp/shared/schemas/crawled-pages';
import { subresourceIntegritySchema } from '@csp/shared/schemas/subresource-integrity';
import { trustedTypesDryRunSchema } from '@csp/shared/schemas/trusted-types';
import * as z from 'zod';
import { runTokenSchema } from '../store/run-token';

export const WRITER_LIMITS = {
  /** The whole request as JSON (a Lambda invocation takes 6 MB). */
  requestChars: 1536 * 1024,
  /** A result without its knowledge and crawled pages, as JSON: it joins the analysis item, which DynamoDB caps at 400 KB. */
  resultChars: 256 * 1024,
  errors: 200,
  errorChars: 1000,
  findings: 1000,
  sourcesPerDirective: 5000,
  sourceChars: 4096,
  urlChars: 4096,
  /** Base64 of the packed knowledge (store/knowledge.ts: 300 KB packed). */
  knowledgeChars: 420 * 1024,
  /** Base64 of the packed watch snapshot (watch/snapshot-pack.ts: 200 KB packed). */
  watchChars: 280 * 1024,
} as const;
const L = WRITER_LIMITS;

/**
 * A policy's directives are names of the directive table, checked on the object's own keys before zod reads
 * it (a JSON `__proto__` key would otherwise become the parsed object's prototype, and `constructor` is a
 * plain word).
 */
const knownDirectives = z.custom<Record<string, unknown>>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Reflect.ownKeys(v).every((k) => typeof k === 'string' && Object.hasOwn(DIRECTIVE_TABLE, k)),
  'Invalid directive name',
);
const boundedRules = knownDirectives.pipe(
  z.record(z.string(), z.array(z.string().max(L.sourceChars)).max(L.sourcesPerDirective)),
);
const errorList = z.array(z.string().max(L.errorChars)).max(L.errors);
const findingList = z.array(policyFindingSchema).max(L.findings);

export const progressReportSchema = z.strictObject({
  stage: analysisStageSchema.optional(),
  progress: z.number().min(0).max(100),
  currentPage: z.string().max(L.urlChars).nullable(),
  totalPages: z.number().int().min(0).max(1_000_000),
});
export type ProgressReport = z.infer<typeof progressReportSchema>;

export const completedRunSchema = z.strictObject({
  cspRules: boundedRules,
  strictCspRules: boundedRules.nullable(),
  /** The generator's findings of each policy; the writer audits the policies itself. */
  findings: findingList,
  strictFindings: findingList,
  resourceStats: resourceStatsSchema,
  errors: errorList,
  totalPages: z.number().int().min(0).max(1_000_000),
  verification: verificationSchema,
  capture: captureSummarySchema,
  /** The Trusted Types dry run (bounded by its schema and TRUSTED_TYPES_LIMITS.resultChars). */
  trustedTypes: trustedTypesDryRunSchema.optional(),
  budget: policyBudgetSchema,
  needsAttention: z.boolean(),
  /** What the crawl saw, packed (store/knowledge.ts) and base64: kept for the analysis of a domain only. */
  knowledge: z.string().max(L.knowledgeChars).base64().nullable(),
  /** Every URL the crawl tried, bounded by its own schema (CRAWLED_PAGES_LIMITS); kept in an item of its own. */
  crawledPages: crawledPagesSchema.optional(),
  /** What the watch keeps of the run (scripts with digests, security headers), packed and base64. */
  watch: z.string().max(L.watchChars).base64().nullable().optional(),
  /** The integrity proposal for the crawled scripts and stylesheets (bounded by its own schema). */
  subresourceIntegrity: subresourceIntegritySchema.nullable().optional(),
});
export type CompletedRun = z.infer<typeof completedRunSchema>;

const run = { analysisId: z.string().min(1).max(64), runToken: runTokenSchema };

export const writerRequestSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('progress'), ...run, report: progressReportSchema }),
  z.strictObject({ op: z.literal('fail'), ...run, errors: errorList.min(1) }),
  z.strictObject({ op: z.literal('complete'), ...run, result: completedRunSchema }),
]);
export type WriterRequest = z.infer<typeof writerRequestSchema>;

/** `accepted` false: the token is not the analysis' current run's (or it is finished); nothing was written. */
export const writerAnswerSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), accepted: z.boolean() }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type WriterAnswer = z.infer<typeof writerAnswerSchema>;

/** A crawl's error lines cut to what the writer takes (the last line says how many were left out). */
export function cutErrors(errors: readonly string[]): string[] {
  const lines = errors.map((e) => e.slice(0, L.errorChars));
  if (lines.length <= L.errors) return lines;
  return [...lines.slice(0, L.errors - 1), `…and ${lines.length - L.errors + 1} more errors.`];
}
