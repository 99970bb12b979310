// How reports are grouped (spec section 9): by the first word of the violated directive and by the origin
// of the blocked URI; data:, about: and blob: URIs are kept as their scheme. One definition for the
// consumer's counters, the owner API and the suggestions.

export interface ReportGroupKey {
  directive: string;
  /** An origin, a scheme (`data:`), or a browser keyword (`inline`, `eval`…). */
  source: string;
}

const KEPT_SCHEMES = new Set(['data:', 'blob:', 'about:', 'filesystem:', 'mediastream:']);
const KEYWORDS = new Set([
  'inline',
  'eval',
  'wasm-eval',
  'self',
  'trusted-types-policy',
  'trusted-types-sink',
]);

export function groupDirective(violatedDirective: string): string {
  return (violatedDirective.trim().split(/\s+/)[0] ?? '').toLowerCase().slice(0, 64) || 'unknown';
}

export function groupSource(blockedUri: string): string {
  const v = blockedUri.trim();
  if (v === '') return '(none)';
  if (KEYWORDS.has(v)) return v;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(v)?.[1]?.toLowerCase();
  if (scheme && KEPT_SCHEMES.has(`${scheme}:`)) return `${scheme}:`;
  try {
    const u = new URL(v);
    if (u.origin !== 'null') return u.origin;
    return u.protocol;
  } catch {
    return v.toLowerCase().slice(0, 200);
  }
}

/** `2026-11-24T13`: the hour a report counts in (UTC), sortable as text. */
export const hourOf = (iso: string) => iso.slice(0, 13);

export function reportGroup(report: { violatedDirective: string; blockedUri: string }): ReportGroupKey {
  return { directive: groupDirective(report.violatedDirective), source: groupSource(report.blockedUri) };
}

/** Inline code and eval are not sources: they are judged by their sample, never offered as an origin. */
export function isCodeSource(source: string): boolean {
  return source === 'inline' || source === 'eval' || source === 'wasm-eval';
}
