// The Trusted Types dry run of an analysis: what `require-trusted-types-for 'script'` would block on the
// crawled pages (the capture's report-only policy carries it; each violation names the sink and a sample),
// and the policy names the pages' code created with trustedTypes.createPolicy. The analysis page shows the
// readiness; a configuration offers the names for its `trusted-types` directive. A hostile page decides how
// many sinks it uses and how long their samples are: everything is bounded here.
import * as z from 'zod';

export const TRUSTED_TYPES_LIMITS = {
  /** Distinct sink uses kept per analysis (by sink, script and line; the rest are counted). */
  sinks: 200,
  /** Pages named per sink use. */
  pagesPerSink: 20,
  policyNames: 50,
  policyNameChars: 128,
  sampleChars: 120,
  urlChars: 2_048,
  /**
   * At most this many distinct uses (sink, script and line) and the site is "default-policy": each is a
   * line to review or a value the default policy must handle, an afternoon's work; beyond, "far".
   */
  defaultPolicyUses: 10,
  /** The dry run as JSON, at most: it joins the analysis item (DynamoDB's 400 KB) beside the policies. */
  resultChars: 32 * 1024,
} as const;

/**
 * A policy name as the `trusted-types` directive can list it (tt-policy-name in the Trusted Types spec):
 * the names go into a configuration's header as they are, so nothing else (no space, no `;`) is kept.
 */
export const TRUSTED_TYPES_POLICY_NAME = /^[A-Za-z0-9\-#=_/@.%]+$/;

/**
 * ready: no page used a sink (enforcing breaks nothing). default-policy: sinks are used, but few enough
 * places that a default policy (or fixing those lines) makes the site ready. far: sinks are used widely.
 */
export const TRUSTED_TYPES_READINESS = ['ready', 'default-policy', 'far'] as const;
export type TrustedTypesReadiness = (typeof TRUSTED_TYPES_READINESS)[number];

export const trustedTypesSinkSchema = z.object({
  /** The sink as the violation's sample names it: `Element innerHTML`, `eval`, `HTMLScriptElement src`… */
  sink: z.string().max(TRUSTED_TYPES_LIMITS.sampleChars),
  /** The script that used it (the violation's source file; the page itself for inline code), when known. */
  script: z.string().max(TRUSTED_TYPES_LIMITS.urlChars).nullable(),
  line: z.number().int().nonnegative().nullable(),
  column: z.number().int().nonnegative().nullable(),
  /** The start of the value passed to the sink (the violation's sample after the sink name). */
  sample: z.string().max(TRUSTED_TYPES_LIMITS.sampleChars),
  pages: z.array(z.string().max(TRUSTED_TYPES_LIMITS.urlChars)).max(TRUSTED_TYPES_LIMITS.pagesPerSink),
  /** Pages on which it was used (pages lists the first ones). */
  pageCount: z.number().int().nonnegative(),
});
export type TrustedTypesSink = z.infer<typeof trustedTypesSinkSchema>;

export const trustedTypesDryRunSchema = z.object({
  readiness: z.enum(TRUSTED_TYPES_READINESS),
  sinks: z.array(trustedTypesSinkSchema).max(TRUSTED_TYPES_LIMITS.sinks),
  /** Distinct sink uses seen (sinks lists the first TRUSTED_TYPES_LIMITS.sinks). */
  sinkCount: z.number().int().nonnegative(),
  /** Pages the dry run covered (the captured pages). */
  pagesChecked: z.number().int().nonnegative(),
  /** Names passed to trustedTypes.createPolicy on the crawled pages (for the `trusted-types` directive). */
  policyNames: z
    .array(z.string().max(TRUSTED_TYPES_LIMITS.policyNameChars).regex(TRUSTED_TYPES_POLICY_NAME))
    .max(TRUSTED_TYPES_LIMITS.policyNames),
});
export type TrustedTypesDryRun = z.infer<typeof trustedTypesDryRunSchema>;
