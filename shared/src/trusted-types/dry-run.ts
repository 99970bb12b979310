// The Trusted Types dry run, folded page by page: each crawled page hands over the violations of
// `require-trusted-types-for 'script'` its capture saw (report-only: nothing was blocked) and the names its
// code passed to trustedTypes.createPolicy. The tally lives in the crawl state (so a crawl that continues
// in another run keeps it) and is bounded whatever the pages do; the analysis keeps what dryRunOf makes of
// it. Pure.
import * as z from 'zod';
import {
  TRUSTED_TYPES_LIMITS as L,
  TRUSTED_TYPES_POLICY_NAME,
  type TrustedTypesDryRun,
  type TrustedTypesReadiness,
  type TrustedTypesSink,
  trustedTypesSinkSchema,
} from '../schemas/trusted-types';

/** Distinct uses counted beyond the listed ones (as short digests), so sinkCount stays exact that far. */
export const UNLISTED_USES_COUNTED = 5_000;

/** One use of a sink as the browser's violation reports it (sample: `Element innerHTML|<p>hello`). */
export interface SinkViolation {
  sample: string;
  sourceFile: string;
  line: number;
  column: number;
}

/** What one page's capture gives the dry run. */
export interface PageTrustedTypes {
  page: string;
  violations: readonly SinkViolation[];
  policyNames: readonly string[];
}

const policyNameSchema = z.string().max(L.policyNameChars).regex(TRUSTED_TYPES_POLICY_NAME);

export const trustedTypesTallySchema = z.object({
  pagesChecked: z.number().int().nonnegative(),
  sinks: z.array(trustedTypesSinkSchema).max(L.sinks),
  /** Digests of the distinct uses seen once `sinks` was full. */
  unlisted: z.array(z.string().max(8)).max(UNLISTED_USES_COUNTED),
  policyNames: z.array(policyNameSchema).max(L.policyNames),
});
export type TrustedTypesTally = z.infer<typeof trustedTypesTallySchema>;

export function emptyTrustedTypesTally(): TrustedTypesTally {
  return { pagesChecked: 0, sinks: [], unlisted: [], policyNames: [] };
}

type SinkUse = Omit<TrustedTypesSink, 'pages' | 'pageCount'>;

const position = (n: number): number | null => (Number.isFinite(n) && n > 0 ? Math.trunc(n) : null);

/** A violation's sample split into the sink and the start of the value, with where it happened. */
export function sinkUseOf(violation: SinkViolation): SinkUse {
  const bar = violation.sample.indexOf('|');
  return {
    sink: (bar >= 0 ? violation.sample.slice(0, bar) : violation.sample).slice(0, L.sampleChars),
    script: violation.sourceFile ? violation.sourceFile.slice(0, L.urlChars) : null,
    line: position(violation.line),
    column: position(violation.column),
    sample: bar >= 0 ? violation.sample.slice(bar + 1, bar + 1 + L.sampleChars) : '',
  };
}

/** One place in the code: the same sink on the same line of the same script, whatever the value. */
function useKey(use: Pick<SinkUse, 'sink' | 'script' | 'line'>): string {
  return `${use.sink}\n${use.script ?? ''}\n${use.line ?? ''}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: enough to tell a few thousand uses apart for counting. */
function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The tally with one more page: its distinct uses join (or extend) the sinks, its policy names the list. */
export function addPageToTally(tally: TrustedTypesTally, page: PageTrustedTypes): TrustedTypesTally {
  const sinks = tally.sinks.map((s) => ({ ...s, pages: [...s.pages] }));
  const unlisted = [...tally.unlisted];
  const index = new Map(sinks.map((s, i) => [useKey(s), i]));
  const pageUrl = page.page.slice(0, L.urlChars);
  const onThisPage = new Set<string>();
  for (const violation of page.violations) {
    const use = sinkUseOf(violation);
    const key = useKey(use);
    if (onThisPage.has(key)) continue;
    onThisPage.add(key);
    const at = index.get(key);
    const listed = at === undefined ? undefined : sinks[at];
    if (listed) {
      listed.pageCount += 1;
      if (listed.pages.length < L.pagesPerSink) listed.pages.push(pageUrl);
    } else if (sinks.length < L.sinks) {
      index.set(key, sinks.length);
      sinks.push({ ...use, pages: [pageUrl], pageCount: 1 });
    } else {
      const d = digest(key);
      if (!unlisted.includes(d) && unlisted.length < UNLISTED_USES_COUNTED) unlisted.push(d);
    }
  }
  const policyNames = [...tally.policyNames];
  for (const name of page.policyNames) {
    if (policyNames.length >= L.policyNames) break;
    if (policyNameSchema.safeParse(name).success && !policyNames.includes(name)) policyNames.push(name);
  }
  return { pagesChecked: tally.pagesChecked + 1, sinks, unlisted, policyNames };
}

/** ready: nothing used a sink; default-policy: a few places (see TRUSTED_TYPES_LIMITS); far: more. */
export function trustedTypesReadiness(sinkCount: number): TrustedTypesReadiness {
  if (sinkCount === 0) return 'ready';
  return sinkCount <= L.defaultPolicyUses ? 'default-policy' : 'far';
}

/**
 * The analysis' dry run: the readiness, the uses most pages share first, cut to TRUSTED_TYPES_LIMITS.
 * resultChars (fewer pages named per use, then fewer uses listed; the counts stay whole).
 */
export function dryRunOf(tally: TrustedTypesTally): TrustedTypesDryRun {
  const sinkCount = tally.sinks.length + tally.unlisted.length;
  // A stable sort: uses on as many pages keep the order they were found in.
  let sinks = [...tally.sinks].sort((a, b) => b.pageCount - a.pageCount);
  const result = (): TrustedTypesDryRun => ({
    readiness: trustedTypesReadiness(sinkCount),
    sinks,
    sinkCount,
    pagesChecked: tally.pagesChecked,
    policyNames: tally.policyNames,
  });
  const fits = () => JSON.stringify(result()).length <= L.resultChars;
  for (let pages: number = L.pagesPerSink; !fits() && pages > 1; pages = Math.floor(pages / 2)) {
    const keep = Math.max(1, Math.floor(pages / 2));
    sinks = sinks.map((s) => ({ ...s, pages: s.pages.slice(0, keep) }));
  }
  while (!fits() && sinks.length > 0) sinks = sinks.slice(0, Math.max(0, Math.floor(sinks.length * 0.9)));
  return result();
}
