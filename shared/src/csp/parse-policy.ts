// A policy as a site serves it — a Content-Security-Policy header value or a <meta> tag's content — read the
// way browsers read it (CSP Level 3, "parse a serialized CSP" and "parse a response's policies"): directives
// split on ";", names ASCII-lowercased, the first of a repeated directive wins (later ones are ignored), sources
// split on ASCII whitespace; one header value may carry several policies separated by ",", and every one of
// them applies. The text is attacker input (a crawled site's response): bounded, and names outside the
// grammar's letters, digits and "-" are dropped as browsers drop them.
import type { CspRules } from './policy';

/** Longer served policies are cut here: no real policy comes near it, and a hostile one costs nothing more. */
export const SERVED_POLICY_MAX_CHARS = 64 * 1024;
const DIRECTIVE_NAME = /^[a-z0-9-]+$/;
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;

/** One serialized policy (no "," splitting): its directives and sources, in the order served. */
export function parseSerializedPolicy(text: string): CspRules {
  const directives = new Map<string, string[]>();
  for (const token of text.slice(0, SERVED_POLICY_MAX_CHARS).split(';')) {
    const parts = token.trim().split(ASCII_WHITESPACE).filter(Boolean);
    const name = parts[0]?.toLowerCase();
    if (!name || !DIRECTIVE_NAME.test(name) || directives.has(name)) continue;
    directives.set(name, parts.slice(1));
  }
  return Object.fromEntries(directives);
}

/** A header value that may hold several policies ("a, b"): each, empty ones left out. */
export function parsePolicyList(headerValue: string): CspRules[] {
  return headerValue
    .slice(0, SERVED_POLICY_MAX_CHARS)
    .split(',')
    .map(parseSerializedPolicy)
    .filter((rules) => Object.keys(rules).length > 0);
}
