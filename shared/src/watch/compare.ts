// What changed from one completed analysis of a domain to the next (issue: PCI DSS 11.6.1 change detection):
// scripts added, changed (same URL, other content) and removed; origins the policy allows, added or removed per
// directive; every policy difference; and the security headers of the pages both runs crawled, grouped by
// header and change so a header dropped on 300 pages is one change naming 300 pages, not 300 changes.
// Linear in the size of the runs (maps keyed by script key, page and header): two 500-page runs compare in
// milliseconds (npm run bench:policy).
import { isHostSource, isSchemeSource } from '../csp/directives';
import { type DirectiveDiff, diffPolicies } from './policy-diff';
import { SECURITY_HEADERS, type SecurityHeader } from './security-headers';
import type { RunSnapshot, WatchedScript } from './snapshot';

export interface HeaderChange {
  header: SecurityHeader;
  change: 'added' | 'removed' | 'changed';
  before: string | null;
  after: string | null;
  /** The pages (of both runs) served this change. */
  pages: string[];
}

export interface RunChanges {
  scripts: {
    added: WatchedScript[];
    changed: { before: WatchedScript; after: WatchedScript }[];
    removed: WatchedScript[];
  };
  /** Host and scheme sources the policy allows, per directive, that came or went. */
  origins: DirectiveDiff[];
  policy: DirectiveDiff[];
  headers: HeaderChange[];
}

const isOrigin = (source: string) => isHostSource(source) || isSchemeSource(source);

export function compareRuns(before: RunSnapshot, after: RunSnapshot): RunChanges {
  const was = new Map(before.scripts.map((s) => [s.key, s]));
  const now = new Map(after.scripts.map((s) => [s.key, s]));
  const scripts: RunChanges['scripts'] = { added: [], changed: [], removed: [] };
  for (const [key, script] of now) {
    const old = was.get(key);
    if (!old) scripts.added.push(script);
    else if (old.digest !== script.digest) scripts.changed.push({ before: old, after: script });
  }
  for (const [key, script] of was) if (!now.has(key)) scripts.removed.push(script);

  const policy = diffPolicies(before.policy, after.policy);
  const origins = policy
    .map((d) => ({ ...d, added: d.added.filter(isOrigin), removed: d.removed.filter(isOrigin) }))
    .filter((d) => d.added.length > 0 || d.removed.length > 0);

  return { scripts, origins, policy, headers: compareHeaders(before, after) };
}

function compareHeaders(before: RunSnapshot, after: RunSnapshot): HeaderChange[] {
  const was = new Map(before.headers.map((p) => [p.page, p.headers]));
  // Keyed by header, then by the before/after pair: one change per distinct change, with its pages.
  const groups = new Map<string, HeaderChange>();
  for (const { page, headers } of after.headers) {
    const old = was.get(page);
    if (!old) continue; // a page the previous run did not crawl has no "before"
    for (const header of SECURITY_HEADERS) {
      const a = old[header] ?? null;
      const b = headers[header] ?? null;
      if (a === b) continue;
      const change = a === null ? 'added' : b === null ? 'removed' : 'changed';
      const id = JSON.stringify([header, a, b]);
      const group = groups.get(id);
      if (group) group.pages.push(page);
      else groups.set(id, { header, change, before: a, after: b, pages: [page] });
    }
  }
  return [...groups.values()];
}
