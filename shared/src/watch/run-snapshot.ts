// What the crawler records of each page for the watch (the security headers of its document, every script it
// ran with the SHA-384 of what was received), and the pure step that turns a crawl's pages into the run's
// snapshot (snapshot.ts). A hostile page decides how many scripts it runs and how long its URLs are, so the
// per-page record is bounded where it is taken and the snapshot again by WATCH_LIMITS.
import * as z from 'zod';
import type { CspRules } from '../csp/policy';
import { SECURITY_HEADER_MAX_CHARS, SECURITY_HEADERS } from './security-headers';
import {
  type PageHeaders,
  type RunSnapshot,
  SCRIPT_KINDS,
  WATCH_LIMITS,
  type WatchedScript,
} from './snapshot';

/** Scripts recorded per page (the run keeps WATCH_LIMITS.scripts over all pages). */
export const PAGE_SCRIPTS_MAX = 1_000;

export const pageScriptSchema = z.object({
  kind: z.enum(SCRIPT_KINDS),
  /** External scripts and workers; null for inline code and handlers. */
  url: z.string().max(WATCH_LIMITS.urlChars).nullable(),
  /** `sha384-<base64>` of the body as received (of the text for inline code); null when not read. */
  digest: z.string().max(100).nullable(),
  /** The script URL whose code requested it (CDP's initiator stack), when a script did. */
  initiator: z.string().max(WATCH_LIMITS.urlChars).nullable(),
  /**
   * `sha256-<base64>` of the same body: what browsers report in `csp-hash` reports ('report-sha256'), so the
   * field's digests can be matched with the crawl's. External scripts only; absent or null when not read.
   */
  sha256: z.string().max(100).nullable().optional(),
  /**
   * Whether the response allowed CORS for the page's origin (Access-Control-Allow-Origin `*` or that origin):
   * Subresource Integrity on a cross-origin script needs it. External scripts only; null when not known.
   */
  cors: z.boolean().nullable().optional(),
  /** The page's <script> element for it carries an integrity attribute. External scripts only. */
  integrity: z.boolean().optional(),
});
export type PageScript = z.infer<typeof pageScriptSchema>;

/** External stylesheets recorded per page (Subresource Integrity covers them too; the watch does not). */
export const PAGE_STYLESHEETS_MAX = 200;

/** An external stylesheet a page loaded: what an integrity proposal needs (shared/src/integrity/). */
export const pageStylesheetSchema = z.object({
  url: z.string().max(WATCH_LIMITS.urlChars),
  /** `sha384-<base64>` of the body as received; null when not read (served from memory, gone). */
  digest: z.string().max(100).nullable(),
  /** Whether the response allowed CORS for the page's origin; null when not known. */
  cors: z.boolean().nullable(),
});
export type PageStylesheet = z.infer<typeof pageStylesheetSchema>;

export const pageWatchSchema = z.object({
  page: z.string().max(WATCH_LIMITS.urlChars),
  headers: z.partialRecord(z.enum(SECURITY_HEADERS), z.string().max(SECURITY_HEADER_MAX_CHARS)),
  scripts: z.array(pageScriptSchema).max(PAGE_SCRIPTS_MAX),
  /** Not part of the watch's snapshot: the inventory is of scripts (PCI DSS 6.4.3). Absent: none recorded. */
  stylesheets: z.array(pageStylesheetSchema).max(PAGE_STYLESHEETS_MAX).optional(),
});
export type PageWatch = z.infer<typeof pageWatchSchema>;

/** The digest of a script whose body the crawler could not read. */
export const UNREAD_DIGEST = 'unread';

/** A URL cut to what the watch keeps (a 1 MB URL is not an identity worth storing whole). */
export const boundedUrl = (url: string) => url.slice(0, WATCH_LIMITS.urlChars);

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? null : u.origin;
  } catch {
    return null;
  }
}

export interface SnapshotInput {
  analysisId: string;
  completedAt: string;
  /** The site's own origins ('self' and the origins the crawl followed as the same site). */
  siteOrigins: readonly string[];
  policy: CspRules;
  pages: readonly PageWatch[];
}

/**
 * The run's snapshot: scripts merged by identity over the pages (a digest read on any page fills the others,
 * a script served from the memory cache on later pages is not re-read), party from origin and initiator,
 * everything bounded by WATCH_LIMITS. Scripts beyond the limit are the ones seen on the fewest pages.
 */
export function runSnapshotOf(input: SnapshotInput): RunSnapshot {
  const own = new Set(input.siteOrigins);
  const isFirst = (url: string | null) => url === null || own.has(originOf(url) ?? '');
  const digests = new Map<string, string>();
  const sha256s = new Map<string, string>();
  const cors = new Map<string, boolean>();
  const initiators = new Map<string, string>();
  // A script counts as included with integrity only if every page that loads it does (Integrity-Policy
  // refuses it on any page that does not).
  const withoutIntegrity = new Set<string>();
  for (const page of input.pages) {
    for (const s of page.scripts) {
      if (s.url === null) continue;
      if (s.digest && !digests.has(s.url)) {
        digests.set(s.url, s.digest);
        // The SHA-256 of the same read as the SHA-384 kept (two reads of a changing file could differ).
        if (s.sha256) sha256s.set(s.url, s.sha256);
      }
      if (typeof s.cors === 'boolean' && !cors.has(s.url)) cors.set(s.url, s.cors);
      if (s.initiator && !initiators.has(s.url)) initiators.set(s.url, s.initiator);
      if (s.integrity === false) withoutIntegrity.add(s.url);
    }
  }
  const byKey = new Map<string, WatchedScript>();
  const pageSets = new Map<string, Set<string>>();
  for (const page of input.pages) {
    const pageUrl = boundedUrl(page.page);
    for (const s of page.scripts) {
      if (s.url === null && !s.digest) continue; // inline code without a digest has no identity
      const url = s.url === null ? null : boundedUrl(withoutFragment(s.url));
      // A script whose body could not be read (gone before it was asked for) says so rather than guessing.
      const digest = (s.url === null ? s.digest : digests.get(s.url)) ?? UNREAD_DIGEST;
      const key = url ?? `${s.kind}:${digest}`;
      let script = byKey.get(key);
      if (!script) {
        const initiator = s.url === null ? null : (initiators.get(s.url) ?? null);
        const via = initiator ? boundedUrl(initiator) : null;
        script = {
          key,
          kind: s.kind,
          url,
          digest,
          party: isFirst(url) ? 'first' : via && !isFirst(via) ? 'fourth' : 'third',
          initiator: via,
          ...(s.kind === 'external' && s.url !== null
            ? {
                sha256: sha256s.get(s.url) ?? null,
                cors: cors.get(s.url) ?? null,
                ...(s.integrity !== undefined ? { integrity: !withoutIntegrity.has(s.url) } : {}),
              }
            : {}),
          pages: [],
          pageCount: 0,
        };
        byKey.set(key, script);
        pageSets.set(key, new Set());
      }
      const pages = pageSets.get(key);
      if (pages && !pages.has(pageUrl)) {
        pages.add(pageUrl);
        script.pageCount += 1;
        if (script.pages.length < WATCH_LIMITS.pagesPerScript) script.pages.push(pageUrl);
      }
    }
  }
  let scripts = [...byKey.values()];
  if (scripts.length > WATCH_LIMITS.scripts) {
    scripts = scripts
      .sort((a, b) => b.pageCount - a.pageCount || (a.key < b.key ? -1 : 1))
      .slice(0, WATCH_LIMITS.scripts);
  }
  const seenPages = new Set<string>();
  const headers: PageHeaders[] = [];
  for (const page of input.pages) {
    const url = boundedUrl(page.page);
    if (seenPages.has(url) || headers.length >= WATCH_LIMITS.pages) continue;
    seenPages.add(url);
    headers.push({ page: url, headers: page.headers });
  }
  return {
    analysisId: input.analysisId,
    completedAt: input.completedAt,
    scripts,
    policy: input.policy,
    headers,
  };
}

function withoutFragment(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}
