// Nonces (spec section 9): 32 random bytes as 64 hex characters, added to script-src and style-src.
import { dictionary } from '../maps/dictionary';
import { compareSources, isNonce, NONCE_VALUE_PATTERN, NONE, SELF } from './directives';
import type { CspRules } from './policy';

export const NONCE_BYTES = 32;

/** A fresh nonce: Web Crypto, so the same code runs in the browser and in Node 20+. */
export function createNonce(): string {
  const bytes = new Uint8Array(NONCE_BYTES);
  globalThis.crypto.getRandomValues(bytes);
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
  return hex;
}

const NONCE_DIRECTIVES = ['script-src', 'style-src'] as const;

/**
 * Rules with `'nonce-<nonce>'` in script-src and style-src, each created as `'self'` if absent (spec).
 * A response carries one nonce, so any nonce already there (e.g. the strict-mode placeholder) is replaced;
 * 'none' is dropped because a list with 'none' and other sources is invalid. Note: a nonce in style-src
 * makes browsers ignore 'unsafe-inline' there, so style= attributes then need style-src-attr.
 */
export function applyNonce(rules: CspRules, nonce: string): CspRules {
  if (!NONCE_VALUE_PATTERN.test(nonce)) {
    throw new Error('nonce must be at least 16 base64 or hex characters');
  }
  const source = `'nonce-${nonce}'`;
  const out = dictionary(rules);
  for (const directive of NONCE_DIRECTIVES) {
    const existing = rules[directive] ?? [SELF];
    const kept = existing.filter((s) => s !== NONE && !isNonce(s));
    out[directive] = [...new Set([...kept, source])].sort(compareSources);
  }
  return out;
}
