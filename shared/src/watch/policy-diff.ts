// What differs between two policies, directive by directive, as sets of sources (order and repeats do not
// matter to browsers). Sources are compared in a canonical form: keywords and schemes are case-insensitive
// in CSP, hosts are case-insensitive in URLs, hashes and nonces are not; and any nonce stands for any nonce
// (a nonce is new on every response, so two servings of one policy never share it).
import { isHash } from '../csp/directives';
import type { CspRules } from '../csp/policy';

export interface DirectiveDiff {
  directive: string;
  /** 'added': only the second policy has the directive; 'removed': only the first; 'changed': both. */
  change: 'added' | 'removed' | 'changed';
  added: string[];
  removed: string[];
}

const ANY_NONCE = "'nonce-*'";
/** Any nonce source, placeholders included (`'nonce-$request_id'`, `'nonce-{NONCE}'` in a saved policy). */
const NONCE_SOURCE = /^'nonce-[^']*'$/i;

/** The canonical form of a source for comparison. */
export function canonicalSource(source: string): string {
  if (NONCE_SOURCE.test(source)) return ANY_NONCE;
  if (isHash(source)) return source;
  if (source.startsWith("'")) return source.toLowerCase();
  // scheme://host:port/path — everything before the path is case-insensitive.
  const path = source.search(/(?<!\/)\/(?!\/)/);
  return path < 0 ? source.toLowerCase() : source.slice(0, path).toLowerCase() + source.slice(path);
}

function canonicalSet(sources: readonly string[]): Map<string, string> {
  const set = new Map<string, string>();
  for (const s of sources) {
    const c = canonicalSource(s);
    if (!set.has(c)) set.set(c, s);
  }
  return set;
}

/** The directives whose sources differ from `before` to `after` (empty when the policies are equivalent). */
export function diffPolicies(before: CspRules, after: CspRules): DirectiveDiff[] {
  const diffs: DirectiveDiff[] = [];
  const names = new Set([...Object.keys(before), ...Object.keys(after)].map((n) => n.toLowerCase()));
  const lookup = (rules: CspRules, name: string) => {
    const key = Object.keys(rules).find((k) => k.toLowerCase() === name);
    return key === undefined ? undefined : rules[key];
  };
  for (const directive of [...names].sort()) {
    const a = lookup(before, directive);
    const b = lookup(after, directive);
    const was = canonicalSet(a ?? []);
    const now = canonicalSet(b ?? []);
    const added = [...now].filter(([c]) => !was.has(c)).map(([, s]) => s);
    const removed = [...was].filter(([c]) => !now.has(c)).map(([, s]) => s);
    if (a === undefined) diffs.push({ directive, change: 'added', added, removed });
    else if (b === undefined) diffs.push({ directive, change: 'removed', added, removed });
    else if (added.length > 0 || removed.length > 0)
      diffs.push({ directive, change: 'changed', added, removed });
  }
  return diffs;
}
