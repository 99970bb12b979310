// What one completed analysis of a watched domain says about the site, in the form two runs are compared
// in (compare.ts): every script the crawl saw with the digest of its content, the origins the policy allows
// per directive, the policy itself, and the security headers each crawled page was served with.
import * as z from 'zod';
import { cspRulesSchema } from '../csp/policy';
import { SECURITY_HEADER_MAX_CHARS, SECURITY_HEADERS } from './security-headers';

export const SCRIPT_KINDS = ['external', 'inline', 'handler', 'worker'] as const;
/**
 * Who serves a script: the site itself, a third party the site includes, or a "fourth party" a third-party
 * script loaded (the initiator chain leaves the site's own origins twice).
 */
export const SCRIPT_PARTIES = ['first', 'third', 'fourth'] as const;

export const WATCH_LIMITS = {
  /** Scripts kept per run (a page that generates scripts without end must not grow the item without end). */
  scripts: 5_000,
  /** Pages named per script (the rest are counted, not listed). */
  pagesPerScript: 50,
  /** Pages whose headers are kept per run. */
  pages: 500,
  urlChars: 2_048,
} as const;

export const watchedScriptSchema = z.object({
  /**
   * The script's identity across runs. External scripts and workers: their URL without fragment. Inline
   * code and handlers have no identity but their text: kind and digest (`inline:sha384-…`), so changed inline
   * code is a new script and the old one is removed.
   */
  key: z.string().max(WATCH_LIMITS.urlChars + 16),
  kind: z.enum(SCRIPT_KINDS),
  url: z.string().max(WATCH_LIMITS.urlChars).nullable(),
  /** SHA-384 of the body as received (`sha384-<base64>`), as Subresource Integrity writes it. */
  digest: z.string().max(100),
  /** `sha256-<base64>` of the same body (what `csp-hash` reports carry); external scripts, when read. */
  sha256: z.string().max(100).nullable().optional(),
  /** The response allowed CORS (SRI on a cross-origin script needs it); null or absent when not known. */
  cors: z.boolean().nullable().optional(),
  /** Every page that loads it includes it with an integrity attribute (absent: not recorded). */
  integrity: z.boolean().optional(),
  party: z.enum(SCRIPT_PARTIES),
  /** The script (URL) that loaded it, when another script did. */
  initiator: z.string().max(WATCH_LIMITS.urlChars).nullable(),
  pages: z.array(z.string().max(WATCH_LIMITS.urlChars)).max(WATCH_LIMITS.pagesPerScript),
  pageCount: z.number().int().nonnegative(),
});
export type WatchedScript = z.infer<typeof watchedScriptSchema>;

const headerValues = z.partialRecord(z.enum(SECURITY_HEADERS), z.string().max(SECURITY_HEADER_MAX_CHARS));

export const pageHeadersSchema = z.object({
  page: z.string().max(WATCH_LIMITS.urlChars),
  headers: headerValues,
});
export type PageHeaders = z.infer<typeof pageHeadersSchema>;

export const runSnapshotSchema = z.object({
  analysisId: z.string(),
  completedAt: z.string(),
  scripts: z.array(watchedScriptSchema).max(WATCH_LIMITS.scripts),
  /** The generated policy (the crawl's view of what the site needs). */
  policy: cspRulesSchema,
  headers: z.array(pageHeadersSchema).max(WATCH_LIMITS.pages),
});
export type RunSnapshot = z.infer<typeof runSnapshotSchema>;
