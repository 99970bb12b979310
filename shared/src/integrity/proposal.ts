// Whether Subresource Integrity is safe for one external script or stylesheet, and the attributes to add.
// Safe means: its body was read (there is a digest), one content was seen for it (a file that differs
// between pages or runs would be blocked for some visitors), its URL names one immutable file
// (versioned-url.ts: a vendor's update at the same address would be blocked), and the browser may read it
// (a cross-origin file needs CORS, or the integrity check fails on an opaque response).
//
// crossorigin: `anonymous` for a cross-origin file only. A same-origin response is readable without CORS, so
// the attribute adds nothing there, and leaving it out keeps the tag matching a `<link rel=preload>` of the
// same file written without it (a mismatch makes the browser fetch the file twice).
//
// Then for a crawl: every page's files folded into one proposal, and the page templates (pages loading the
// same set of files) the download lists tags for. Pure.

import {
  SRI_LIMITS,
  type SriReason,
  type SriResource,
  type SriResourceKind,
  type SriTemplate,
  type SubresourceIntegrity,
} from '../schemas/subresource-integrity';
import type { InventoryEntry } from '../watch/inventory';
import { type PageStylesheet, type PageWatch, UNREAD_DIGEST } from '../watch/run-snapshot';
import { versionedUrl } from './versioned-url';

export interface SriInput {
  kind: SriResourceKind;
  url: string;
  /** Distinct `sha384-…` digests seen for the URL (empty: never read). */
  digests: readonly string[];
  /** The response allowed CORS for the page's origin; null when not known. */
  cors: boolean | null;
  /** The file is on the page's own origin. */
  sameOrigin: boolean;
}

export interface SriVerdict {
  ready: boolean;
  /** The digest to pin (the one content seen), or null. */
  sha384: string | null;
  crossorigin: 'anonymous' | null;
  reasons: SriReason[];
}

export function integrityVerdict(input: SriInput): SriVerdict {
  const reasons: SriReason[] = [];
  if (input.digests.length === 0) reasons.push('unread');
  else if (input.digests.length > 1) reasons.push('content-differs');
  const version = versionedUrl(input.url);
  if (!version.versioned) reasons.push(version.why);
  if (!input.sameOrigin && input.cors !== true)
    reasons.push(input.cors === false ? 'no-cors' : 'cors-unknown');
  return {
    ready: reasons.length === 0,
    sha384: input.digests.length === 1 ? (input.digests[0] ?? null) : null,
    crossorigin: input.sameOrigin ? null : 'anonymous',
    reasons,
  };
}

/**
 * The verdict for an external script of the inventory: its digests over runs say whether its content stayed
 * one file (a versioned URL whose content changed between runs is not immutable). Null for what SRI cannot
 * cover (inline code, handlers, workers, scripts only the field reported with no content known: 'unread').
 */
export function scriptIntegrityVerdict(
  entry: Pick<InventoryEntry, 'kind' | 'url' | 'party' | 'digest' | 'digests' | 'cors'>,
): SriVerdict | null {
  if (entry.kind !== 'external' || entry.url === null) return null;
  const read = (d: string | null) => d !== null && d !== UNREAD_DIGEST;
  const digests = read(entry.digest)
    ? [...new Set([entry.digest as string, ...entry.digests.map((d) => d.digest).filter(read)])]
    : [];
  return integrityVerdict({
    kind: 'script',
    url: entry.url,
    digests,
    cors: entry.cors ?? null,
    // The site's own origin: what the watch calls first party.
    sameOrigin: entry.party === 'first',
  });
}

/** What a person reads for each reason (the Scripts screen, the download). */
export function sriReasonText(reason: SriReason, kind: SriResourceKind = 'script'): string {
  const file = kind === 'script' ? 'script' : 'stylesheet';
  switch (reason) {
    case 'unread':
      return 'The body could not be read: there is no digest to pin';
    case 'content-differs':
      return 'The content differed between pages or runs: SRI would block the other versions';
    case 'no-version':
      return 'The URL has no version: the vendor can change the file at this address and SRI would then block it';
    case 'floating':
      return 'The URL names the latest release: the file at this address changes with each release and SRI would then block it';
    case 'tag-manager':
      return 'A tag manager serves what its container holds now: the file changes with each publish and SRI would then block it';
    case 'major-only':
      return 'The URL names a major version or a range only: the file changes with each release in it and SRI would then block it';
    case 'no-cors':
      return `The server does not allow CORS: a cross-origin ${file} with integrity needs Access-Control-Allow-Origin`;
    case 'cors-unknown':
      return `The crawl did not see whether the server allows CORS (the ${file} came from the cache)`;
  }
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

interface Seen {
  kind: SriResourceKind;
  url: string;
  digests: Set<string>;
  cors: boolean | null;
  pages: number;
  /** First index in crawl order (ties in page count keep it). */
  order: number;
}

/** The pages' external scripts and stylesheets as the proposal reads them (a page record of the crawl). */
export type SriPage = Pick<PageWatch, 'page' | 'scripts'> & { stylesheets?: readonly PageStylesheet[] };

function filesOf(
  page: SriPage,
): { kind: SriResourceKind; url: string; digest: string | null; cors: boolean | null }[] {
  const scripts = page.scripts.flatMap((s) =>
    s.kind === 'external' && s.url !== null
      ? [{ kind: 'script' as const, url: s.url, digest: s.digest, cors: s.cors ?? null }]
      : [],
  );
  const sheets = (page.stylesheets ?? []).map((s) => ({ kind: 'stylesheet' as const, ...s }));
  return [...scripts, ...sheets].map((f) => ({ ...f, url: withoutFragment(f.url) }));
}

/**
 * The analysis' proposal: files merged by kind and URL over the pages (every digest read anywhere counts:
 * two reads that differ say the content is not one file), the most widely loaded kept, and the templates.
 */
export function integrityProposal(pages: readonly SriPage[], siteOrigin: string): SubresourceIntegrity {
  const seen = new Map<string, Seen>();
  const pageFiles: { page: string; keys: string[] }[] = [];
  for (const page of pages) {
    const keys: string[] = [];
    for (const file of filesOf(page)) {
      const key = `${file.kind} ${file.url}`;
      if (keys.includes(key)) continue;
      keys.push(key);
      let entry = seen.get(key);
      if (!entry) {
        entry = {
          kind: file.kind,
          url: file.url,
          digests: new Set(),
          cors: null,
          pages: 0,
          order: seen.size,
        };
        seen.set(key, entry);
      }
      entry.pages += 1;
      if (file.digest) entry.digests.add(file.digest);
      if (entry.cors === null && file.cors !== null) entry.cors = file.cors;
    }
    pageFiles.push({ page: page.page, keys });
  }

  const kept = [...seen.entries()]
    .filter(([, s]) => s.url.length <= SRI_LIMITS.urlChars)
    .sort(([, a], [, b]) => b.pages - a.pages || a.order - b.order)
    .slice(0, SRI_LIMITS.resources);
  const index = new Map(kept.map(([key], i) => [key, i]));
  const resources: SriResource[] = kept.map(([, s]) => {
    const verdict = integrityVerdict({
      kind: s.kind,
      url: s.url,
      digests: [...s.digests],
      cors: s.cors,
      sameOrigin: originOf(s.url) === siteOrigin,
    });
    return {
      kind: s.kind,
      url: s.url,
      sha384: verdict.sha384,
      ready: verdict.ready,
      crossorigin: verdict.crossorigin,
      reasons: verdict.reasons,
      pageCount: s.pages,
    };
  });

  // A template: the pages that load the same set of files (in any order). Pages loading none are left out;
  // a template none of whose files are kept is counted, not listed.
  const templates = new Map<string, SriTemplate>();
  for (const { page, keys } of pageFiles) {
    if (keys.length === 0) continue;
    const signature = [...keys].sort().join('\n');
    const template = templates.get(signature);
    if (template) template.pageCount += 1;
    else {
      const files = keys.flatMap((k) => (index.has(k) ? [index.get(k) as number] : []));
      templates.set(signature, { page: page.slice(0, SRI_LIMITS.urlChars), pageCount: 1, resources: files });
    }
  }
  const all = [...templates.values()];
  return fitted({
    resources,
    resourceCount: seen.size,
    templates: all
      .filter((t) => t.resources.length > 0)
      .sort((a, b) => b.pageCount - a.pageCount)
      .slice(0, SRI_LIMITS.templates),
    templateCount: all.length,
  });
}

/** The proposal within SRI_LIMITS.jsonChars: the least loaded files go (a quarter at a time), and templates
 * keep only the files that stay (a template left with none goes). */
function fitted(proposal: SubresourceIntegrity): SubresourceIntegrity {
  let p = proposal;
  while (JSON.stringify(p).length > SRI_LIMITS.jsonChars && p.resources.length > 0) {
    const keep = Math.floor(p.resources.length * 0.75);
    p = {
      ...p,
      resources: p.resources.slice(0, keep),
      templates: p.templates.flatMap((t) => {
        const files = t.resources.filter((i) => i < keep);
        return files.length > 0 ? [{ ...t, resources: files }] : [];
      }),
    };
  }
  return p;
}

/**
 * The proposal with what earlier runs of the domain saw: a script the inventory holds with more than one
 * content (its digest history) is not one immutable file, whatever its URL says. The same object when nothing
 * changes (the caller then writes nothing).
 */
export function withContentHistory(
  proposal: SubresourceIntegrity,
  entries: readonly Pick<InventoryEntry, 'kind' | 'url' | 'digest' | 'digests'>[],
): SubresourceIntegrity {
  const contents = new Map<string, Set<string>>();
  for (const e of entries) {
    if (e.kind !== 'external' || e.url === null) continue;
    const seen = [e.digest, ...e.digests.map((d) => d.digest)].filter(
      (d): d is string => d !== null && d !== UNREAD_DIGEST,
    );
    contents.set(e.url, new Set(seen));
  }
  let changed = false;
  const resources = proposal.resources.map((r) => {
    const seen = r.kind === 'script' ? contents.get(r.url) : undefined;
    if (!seen || r.reasons.includes('content-differs')) return r;
    const all = new Set(seen);
    if (r.sha384) all.add(r.sha384);
    if (all.size <= 1) return r;
    changed = true;
    const reasons = r.reasons.filter((x) => x !== 'unread');
    return { ...r, ready: false, sha384: null, reasons: ['content-differs' as const, ...reasons] };
  });
  return changed ? { ...proposal, resources } : proposal;
}

function withoutFragment(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}
