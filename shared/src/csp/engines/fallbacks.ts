// Fallbacks for engines that ignore a directive (engine table): the directive they read instead must also
// allow what the ignored one allows, without widening anything for engines that do know it. Pure.
//
// Written: script-src-elem → script-src and style-src-elem → style-src (Firefox < 108, Safari < 15.4, and
// Safari up to 26.1 for style-src-elem), worker-src → child-src (Safari < 15.5 reads child-src for
// workers). Not written: -attr hashes. An engine without script-src-attr / style-src-attr also lacks
// 'unsafe-hashes' (Firefox < 109, Safari < 15.4), so no source it honours could allow an attribute by its
// hash short of 'unsafe-inline'; the policy card names the versions instead (policy-engines.ts).
import {
  compareDirectives,
  DIRECTIVES,
  type Directive,
  fallbackChain,
  isHash,
  isNonce,
  NONE,
  sortSources,
  UNSAFE_EVAL,
  UNSAFE_INLINE,
  WASM_UNSAFE_EVAL,
} from '../directives';
import type { CspRules } from '../policy';

/** (ignored directive, the directive an engine without it reads instead). */
export const WRITTEN_FALLBACKS: readonly (readonly [Directive, Directive])[] = [
  ['script-src-elem', 'script-src'],
  ['style-src-elem', 'style-src'],
  ['worker-src', 'child-src'],
];

/** Keywords that mean nothing in the ignored directive and would widen the one written into. */
const NOT_CARRIED = new Set<string>([UNSAFE_EVAL, WASM_UNSAFE_EVAL, NONE]);

function present(rules: CspRules, d: Directive): boolean {
  return Object.hasOwn(rules, d);
}

/** The sources a CSP3 engine reads for `d` under `rules` (first set directive of its chain). */
function effective(rules: CspRules, d: Directive): { from: Directive; sources: string[] } | undefined {
  for (const candidate of fallbackChain(d)) {
    if (present(rules, candidate)) return { from: candidate, sources: rules[candidate]! };
  }
  return undefined;
}

/**
 * Make `into` also allow what `from` allows. Every directive that a CSP3 engine would now read from the
 * changed `into` (it is unset and its chain reaches `into` first) is pinned to what it read before, so
 * engines that know `from` see no change at all.
 */
export function writeFallback(rules: CspRules, from: Directive, into: Directive): CspRules {
  const carried = (present(rules, from) ? rules[from]! : []).filter((s) => !NOT_CARRIED.has(s));
  const before = present(rules, into) ? rules[into]! : [];
  if (carried.length === 0 || carried.every((s) => before.includes(s))) return rules;

  const out: CspRules = { ...rules };
  for (const d of DIRECTIVES) {
    if (d === into || d === from || present(rules, d) || !fallbackChain(d).includes(into)) continue;
    const was = effective(rules, d);
    const chain = fallbackChain(d);
    // Pinned only when the change reaches it: its chain meets `into` before any directive that is set.
    if (was && chain.indexOf(was.from) < chain.indexOf(into)) continue;
    if (was) out[d] = [...was.sources];
  }
  let merged = [...before.filter((s) => s !== NONE), ...carried];
  // 'unsafe-inline' that `from` honours (no hash or nonce there) would be ignored beside hashes or nonces:
  // the engine reading `into` gets the same honoured 'unsafe-inline', which allows those anyway.
  if (carried.includes(UNSAFE_INLINE) && !carried.some((s) => isHash(s) || isNonce(s))) {
    merged = merged.filter((s) => !isHash(s) && !isNonce(s));
  }
  out[into] = sortSources(merged);
  return out;
}

/** Every written fallback (WRITTEN_FALLBACKS), in order; directives in table order (stable output). */
export function withEngineFallbacks(rules: CspRules): CspRules {
  let out = rules;
  for (const [from, into] of WRITTEN_FALLBACKS) out = writeFallback(out, from, into);
  if (out === rules) return rules;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => compareDirectives(a, b)));
}
