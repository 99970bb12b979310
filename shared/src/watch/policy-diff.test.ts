import { describe, expect, it } from 'vitest';
import { canonicalSource, diffPolicies } from './policy-diff';

describe('diffPolicies', () => {
  it('sees no difference in order, repeats, case of keywords, schemes and hosts, or the nonce value', () => {
    expect(
      diffPolicies(
        {
          'script-src': ["'self'", "'nonce-abc'", 'https://CDN.example.com/Lib/'],
          'img-src': ['data:', "'self'"],
        },
        {
          'IMG-SRC': ["'SELF'", 'DATA:', 'data:'],
          'script-src': ['https://cdn.example.com/Lib/', "'nonce-xyz'", "'self'"],
        },
      ),
    ).toEqual([]);
  });

  it('names the directives that came, went or changed, with the sources', () => {
    expect(
      diffPolicies(
        {
          'default-src': ["'self'"],
          'script-src': ["'self'", "'sha256-AAAA'"],
          'frame-src': ['https://a.test'],
        },
        { 'default-src': ["'self'"], 'script-src': ["'self'", "'sha256-aaaa'"], 'img-src': ['https:'] },
      ),
    ).toEqual([
      { directive: 'frame-src', change: 'removed', added: [], removed: ['https://a.test'] },
      { directive: 'img-src', change: 'added', added: ['https:'], removed: [] },
      // Hashes are base64: case matters.
      { directive: 'script-src', change: 'changed', added: ["'sha256-aaaa'"], removed: ["'sha256-AAAA'"] },
    ]);
  });

  it('keeps a path case-sensitive and a host not', () => {
    expect(canonicalSource('HTTPS://Example.COM:8443/A/b.js')).toBe('https://example.com:8443/A/b.js');
    expect(canonicalSource('*.Example.com')).toBe('*.example.com');
    expect(canonicalSource("'Strict-Dynamic'")).toBe("'strict-dynamic'");
  });
});
