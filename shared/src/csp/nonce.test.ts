import { describe, expect, it } from 'vitest';
import { generatePolicy, NONCE_PLACEHOLDER } from './generate';
import { applyNonce, createNonce } from './nonce';

describe('createNonce', () => {
  it('is 32 random bytes as 64 hex characters, different every time', () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
    for (const n of nonces) expect(n).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('applyNonce', () => {
  const nonce = 'a'.repeat(64);
  const source = `'nonce-${nonce}'`;

  it("adds the nonce to script-src and style-src, creating them with 'self' (spec)", () => {
    expect(applyNonce({ 'default-src': ["'none'"] }, nonce)).toEqual({
      'default-src': ["'none'"],
      'script-src': ["'self'", source],
      'style-src': ["'self'", source],
    });
  });

  it("keeps existing sources, drops 'none', and does not touch its input", () => {
    const rules = { 'script-src': ['https://cdn.example', "'self'"], 'style-src': ["'none'"] };
    const out = applyNonce(rules, nonce);
    expect(out['script-src']).toEqual(["'self'", source, 'https://cdn.example']);
    expect(out['style-src']).toEqual([source]);
    expect(rules['style-src']).toEqual(["'none'"]);
  });

  it('replaces a nonce already there, e.g. the strict-mode placeholder', () => {
    const strict = generatePolicy(
      { origin: 'https://site.example', pages: [], errors: [] },
      { mode: 'strict' },
    ).rules;
    const out = applyNonce(strict, nonce);
    expect(out['script-src']).toContain(source);
    expect(out['script-src']?.join(' ')).not.toContain(NONCE_PLACEHOLDER);
    expect(out['script-src']?.filter((s) => s.startsWith("'nonce-"))).toHaveLength(1);
  });

  it('refuses a nonce that could break the policy', () => {
    expect(() => applyNonce({}, "abc' 'unsafe-inline")).toThrow();
    expect(() => applyNonce({}, 'short')).toThrow();
  });
});
