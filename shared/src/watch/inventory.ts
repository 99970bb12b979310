// The script inventory of a domain (PCI DSS 6.4.3: every script, why it is there, that it is authorized, and
// that its content is what was authorized). Each completed run is folded into it by `reconcileInventory`:
// scripts new to the domain wait for review (pending) unless a rule authorizes their URL; a script whose
// content changed is pending again unless its rule allows any content; scripts a run no longer saw are
// removed (kept, with their history); a script the field reports but no crawl saw is listed as such.
// Pure: the store writes what this returns, and the events become alerts.
import * as z from 'zod';
import type { RunSnapshot, WatchedScript } from './snapshot';
import { SCRIPT_KINDS, SCRIPT_PARTIES, WATCH_LIMITS } from './snapshot';
import { matchesUrlPattern, URL_PATTERN_MAX_CHARS } from './url-pattern';

export const INVENTORY_STATES = ['authorized', 'pending', 'removed'] as const;
/** Digests remembered per script (the newest; older ones drop off). */
export const DIGEST_HISTORY = 20;

export const authorizationSchema = z.object({
  by: z.string(),
  at: z.string(),
  justification: z.string().min(1).max(2_000),
  /** The content authorized (null: none known yet, a script only the field reported). */
  digest: z.string().nullable(),
  /** A rule that keeps the script authorized whatever its content. */
  anyContent: z.boolean(),
  ruleId: z.string().nullable(),
});
export type Authorization = z.infer<typeof authorizationSchema>;

export const authorizationRuleSchema = z.object({
  id: z.string(),
  pattern: z.string().min(1).max(URL_PATTERN_MAX_CHARS),
  /** Also keeps a matching script authorized when its content changes. */
  anyContent: z.boolean(),
  justification: z.string().min(1).max(2_000),
  by: z.string(),
  at: z.string(),
});
export type AuthorizationRule = z.infer<typeof authorizationRuleSchema>;

export const inventoryEntrySchema = z.object({
  key: z.string(),
  kind: z.enum(SCRIPT_KINDS),
  url: z.string().nullable(),
  party: z.enum(SCRIPT_PARTIES),
  initiator: z.string().nullable(),
  /** SHA-384 of the content last seen; null for a script only the field has reported (content unknown). */
  digest: z.string().nullable(),
  /** `sha256-<base64>` of the content last seen (what field `csp-hash` reports are matched with). */
  sha256: z.string().nullable().optional(),
  /** The response allowed CORS, as the last crawl saw it (null or absent: not known). */
  cors: z.boolean().nullable().optional(),
  /** The last crawl saw it included with an integrity attribute on every page (absent: not recorded). */
  integrity: z.boolean().optional(),
  /**
   * The contents seen over runs, oldest first, each with its `sha256` when the crawl read it: a field
   * digest of an earlier content is a visitor's cached copy or a rollback, not content no crawl saw.
   */
  digests: z
    .array(
      z.object({
        digest: z.string(),
        sha256: z.string().optional(),
        firstSeen: z.string(),
        lastSeen: z.string(),
      }),
    )
    .max(DIGEST_HISTORY),
  pages: z.array(z.string()).max(WATCH_LIMITS.pagesPerScript),
  pageCount: z.number().int().nonnegative(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  state: z.enum(INVENTORY_STATES),
  /** The last authorization (kept when the script goes pending or is removed: the history says why). */
  authorization: authorizationSchema.nullable(),
  /** 'crawl': a crawl saw it; 'field': only visitors' reports did. */
  seenBy: z.enum(['crawl', 'field']),
});
export type InventoryEntry = z.infer<typeof inventoryEntrySchema>;

export type InventoryEvent =
  | { type: 'new-pending'; key: string }
  | { type: 'new-authorized'; key: string; ruleId: string }
  | { type: 'content-changed'; key: string; before: string; after: string; state: 'pending' | 'authorized' }
  | { type: 'removed'; key: string }
  | { type: 'field-only'; key: string }
  | { type: 'returned'; key: string; state: 'pending' | 'authorized' };

const ruleFor = (rules: readonly AuthorizationRule[], url: string | null) =>
  url === null ? undefined : rules.find((r) => matchesUrlPattern(r.pattern, url));

function fromRule(rule: AuthorizationRule, digest: string | null): Authorization {
  return {
    by: rule.by,
    at: rule.at,
    justification: rule.justification,
    digest,
    anyContent: rule.anyContent,
    ruleId: rule.id,
  };
}

/** One content of the history: its SHA-384, and its SHA-256 when a crawl read it. */
function historyItem(script: WatchedScript, at: string, known?: InventoryEntry['digests'][number]) {
  const sha256 = script.sha256 ?? known?.sha256;
  return {
    digest: script.digest,
    ...(sha256 ? { sha256 } : {}),
    firstSeen: known?.firstSeen ?? at,
    lastSeen: at,
  };
}

function withDigest(entry: InventoryEntry, script: WatchedScript, at: string): InventoryEntry['digests'] {
  const known = entry.digests.find((d) => d.digest === script.digest);
  const rest = entry.digests.filter((d) => d.digest !== script.digest);
  return [...rest, historyItem(script, at, known)].slice(-DIGEST_HISTORY);
}

/** Whether the authorization covers content `digest` (unknown content is covered only by any-content rules). */
const covers = (a: Authorization | null, digest: string | null) =>
  a !== null && (a.anyContent || (a.digest !== null && a.digest === digest));

export function reconcileInventory(
  entries: readonly InventoryEntry[],
  run: Pick<RunSnapshot, 'scripts' | 'completedAt'>,
  rules: readonly AuthorizationRule[],
): { entries: InventoryEntry[]; events: InventoryEvent[] } {
  const at = run.completedAt;
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const seen = new Set<string>();
  const events: InventoryEvent[] = [];
  const out: InventoryEntry[] = [];

  for (const script of run.scripts) {
    seen.add(script.key);
    const old = byKey.get(script.key);
    const observed = observedFields(script, at);
    if (!old) {
      const rule = ruleFor(rules, script.url);
      out.push({
        ...observed,
        firstSeen: at,
        digests: [historyItem(script, at)],
        state: rule ? 'authorized' : 'pending',
        authorization: rule ? fromRule(rule, script.digest) : null,
      });
      events.push(
        rule
          ? { type: 'new-authorized', key: script.key, ruleId: rule.id }
          : { type: 'new-pending', key: script.key },
      );
      continue;
    }
    // A script first known from the field has no digest yet: the crawl's is its first, not a change.
    const changed = old.digest !== null && old.digest !== script.digest;
    // A rule added since may cover content the entry's own authorization does not (any content, or a
    // script the field reported before any crawl saw it).
    const rule = ruleFor(rules, script.url);
    const authorization = covers(old.authorization, script.digest)
      ? old.authorization
      : rule && (rule.anyContent || old.digest === null)
        ? fromRule(rule, script.digest)
        : old.authorization;
    const state = covers(authorization, script.digest) ? 'authorized' : 'pending';
    out.push({
      ...observed,
      firstSeen: old.firstSeen,
      digests: withDigest(old, script, at),
      state,
      authorization,
    });
    if (changed && old.digest !== null)
      events.push({
        type: 'content-changed',
        key: script.key,
        before: old.digest,
        after: script.digest,
        state,
      });
    else if (old.state === 'removed') events.push({ type: 'returned', key: script.key, state });
  }

  for (const old of entries) {
    if (seen.has(old.key)) continue;
    // Scripts only the field reports are not the crawl's to remove.
    if (old.state !== 'removed' && old.seenBy === 'crawl') {
      out.push({ ...old, state: 'removed' });
      events.push({ type: 'removed', key: old.key });
    } else {
      out.push(old);
    }
  }
  return { entries: out, events };
}

function observedFields(script: WatchedScript, at: string) {
  return {
    key: script.key,
    kind: script.kind,
    url: script.url,
    party: script.party,
    initiator: script.initiator,
    digest: script.digest,
    // Absent (not null) when the snapshot has none, so entries of scripts without them store as before.
    ...(script.sha256 !== undefined ? { sha256: script.sha256 } : {}),
    ...(script.cors !== undefined ? { cors: script.cors } : {}),
    ...(script.integrity !== undefined ? { integrity: script.integrity } : {}),
    pages: script.pages,
    pageCount: script.pageCount,
    lastSeen: at,
    seenBy: 'crawl' as const,
  };
}

/**
 * Authorizes entries (one justification for many: bulk review) for their current content, or for any
 * content when `anyContent` (the owner vouches for whatever the URL serves, e.g. a vendor's evergreen tag).
 */
export function authorize(
  entries: readonly InventoryEntry[],
  keys: ReadonlySet<string>,
  by: { userId: string; at: string; justification: string; anyContent?: boolean },
): InventoryEntry[] {
  return entries.map((e) =>
    keys.has(e.key) && e.state !== 'removed'
      ? {
          ...e,
          state: 'authorized',
          authorization: {
            by: by.userId,
            at: by.at,
            justification: by.justification,
            digest: e.digest,
            anyContent: by.anyContent ?? false,
            ruleId: null,
          },
        }
      : e,
  );
}

/**
 * A rule just added: the pending scripts its pattern matches are authorized by it now (for their current
 * content), as later versions will be when a run sees them.
 */
export function applyRule(entries: readonly InventoryEntry[], rule: AuthorizationRule): InventoryEntry[] {
  return entries.map((e) =>
    e.state === 'pending' && e.url !== null && matchesUrlPattern(rule.pattern, e.url)
      ? { ...e, state: 'authorized', authorization: fromRule(rule, e.digest) }
      : e,
  );
}

/**
 * A rule deleted: scripts it authorized stay authorized for the content they have, no longer for any
 * content (a deleted rule must not keep vouching for what a URL serves next).
 */
export function withoutRule(entries: readonly InventoryEntry[], ruleId: string): InventoryEntry[] {
  return entries.map((e) =>
    e.authorization?.ruleId === ruleId && e.authorization.anyContent
      ? { ...e, authorization: { ...e.authorization, anyContent: false } }
      : e,
  );
}

/** A script URL from a report as the inventory reads it (no fragment); null when it is not an http(s) URL. */
export function fieldScriptUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null; // reports carry attacker input: what is not a URL is not a script
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.hash = '';
  return url;
}

/** The inventory key of a script a report names by URL (see addFieldScripts); null: not a script URL. */
export function fieldScriptKey(raw: string): string | null {
  return fieldScriptUrl(raw)?.href.slice(0, WATCH_LIMITS.urlChars) ?? null;
}

/**
 * Scripts visitors' browsers reported (blocked or, with report-sha256, loaded) that the inventory does not
 * hold: listed as seen by the field only, pending, content unknown, until a crawl sees them.
 */
export function addFieldScripts(
  entries: readonly InventoryEntry[],
  urls: Iterable<string>,
  at: string,
  siteOrigins: ReadonlySet<string>,
): { entries: InventoryEntry[]; events: InventoryEvent[] } {
  const known = new Set(entries.map((e) => e.key));
  const out = [...entries];
  const events: InventoryEvent[] = [];
  for (const raw of urls) {
    const url = fieldScriptUrl(raw);
    if (!url) continue;
    const key = url.href.slice(0, WATCH_LIMITS.urlChars);
    if (known.has(key) || out.length >= WATCH_LIMITS.scripts) continue;
    known.add(key);
    out.push({
      key,
      kind: 'external',
      url: key,
      party: siteOrigins.has(url.origin) ? 'first' : 'third',
      initiator: null,
      digest: null,
      digests: [],
      pages: [],
      pageCount: 0,
      firstSeen: at,
      lastSeen: at,
      state: 'pending',
      authorization: null,
      seenBy: 'field',
    });
    events.push({ type: 'field-only', key });
  }
  return { entries: out, events };
}

/**
 * The script URLs a batch of violation reports names: what a script directive (script-src, its -elem and
 * -attr forms, worker-src) blocked, when it is a URL. `inline`, `eval` and the like name no script.
 */
export function reportedScriptUrls(
  reports: readonly {
    blockedUri: string;
    violatedDirective: string;
    effectiveDirective?: string | undefined;
  }[],
): string[] {
  const urls = new Set<string>();
  for (const r of reports) {
    const directive = (r.effectiveDirective ?? r.violatedDirective).split(' ')[0] ?? '';
    if (!directive.startsWith('script-src') && directive !== 'worker-src') continue;
    if (r.blockedUri.startsWith('https://') || r.blockedUri.startsWith('http://')) urls.add(r.blockedUri);
  }
  return [...urls];
}
