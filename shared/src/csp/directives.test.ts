import { describe, expect, it } from 'vitest';
import { OBSERVED_DIRECTIVES } from './artifact';
import {
  compareDirectives,
  DIRECTIVE_TABLE,
  DIRECTIVES,
  type Directive,
  directiveSchema,
  effectiveDirective,
  effectiveSources,
  fallbackChain,
  isDirective,
  isHash,
  isKeyword,
  isNonce,
  KEYWORDS,
  sortSources,
} from './directives';

describe('directive table', () => {
  it.each<[Directive, Directive[]]>([
    ['script-src-elem', ['script-src-elem', 'script-src', 'default-src']],
    ['script-src-attr', ['script-src-attr', 'script-src', 'default-src']],
    ['style-src-elem', ['style-src-elem', 'style-src', 'default-src']],
    ['style-src-attr', ['style-src-attr', 'style-src', 'default-src']],
    ['worker-src', ['worker-src', 'child-src', 'script-src', 'default-src']],
    ['frame-src', ['frame-src', 'child-src', 'default-src']],
    ['child-src', ['child-src', 'default-src']],
    ['script-src', ['script-src', 'default-src']],
    ['style-src', ['style-src', 'default-src']],
    ['img-src', ['img-src', 'default-src']],
    ['font-src', ['font-src', 'default-src']],
    ['media-src', ['media-src', 'default-src']],
    ['connect-src', ['connect-src', 'default-src']],
    ['manifest-src', ['manifest-src', 'default-src']],
    ['object-src', ['object-src', 'default-src']],
    ['default-src', ['default-src']],
    ['form-action', ['form-action']],
    ['base-uri', ['base-uri']],
    ['frame-ancestors', ['frame-ancestors']],
  ])('%s falls back along the CSP3 chain', (directive, chain) => {
    expect(fallbackChain(directive)).toEqual(chain);
  });

  it('every fallback is a directive of the table, and every observed directive is known', () => {
    for (const d of DIRECTIVES)
      for (const f of DIRECTIVE_TABLE[d].fallbacks) expect(isDirective(f), f).toBe(true);
    for (const d of OBSERVED_DIRECTIVES) expect(directiveSchema.safeParse(d).success, d).toBe(true);
    expect(directiveSchema.safeParse('script-src-element').success).toBe(false);
  });

  it('effectiveDirective picks the first directive of the chain that the policy sets', () => {
    const present = (set: string[]) => (d: Directive) => set.includes(d);
    expect(effectiveDirective('worker-src', present(['script-src', 'default-src']))).toBe('script-src');
    expect(effectiveDirective('worker-src', present(['child-src', 'script-src']))).toBe('child-src');
    expect(effectiveDirective('frame-src', present(['script-src', 'default-src']))).toBe('default-src');
    expect(effectiveDirective('script-src-attr', present(['script-src-attr', 'script-src']))).toBe(
      'script-src-attr',
    );
    expect(effectiveDirective('form-action', present(['default-src']))).toBeUndefined();
  });

  it('writes directives in table order, unknown ones last alphabetically', () => {
    const names = ['report-uri', 'zeta', 'img-src', 'alpha', 'default-src', 'script-src'];
    expect(names.sort(compareDirectives)).toEqual([
      'default-src',
      'script-src',
      'img-src',
      'report-uri',
      'alpha',
      'zeta',
    ]);
  });
});

describe('keywords, nonces and hashes', () => {
  it('the keyword vocabulary is closed and quoted', () => {
    expect(KEYWORDS).toEqual([
      "'self'",
      "'none'",
      "'strict-dynamic'",
      "'unsafe-inline'",
      "'unsafe-eval'",
      "'unsafe-hashes'",
      "'wasm-unsafe-eval'",
      "'report-sample'",
    ]);
    expect(isKeyword("'self'")).toBe(true);
    expect(isKeyword('self')).toBe(false);
    expect(isKeyword("'unsafe-hashed-attributes'")).toBe(false);
  });

  it.each([
    ["'nonce-abc123+/_-=='", true],
    [`'nonce-${'f'.repeat(64)}'`, true],
    ["'nonce-'", false],
    ['nonce-abc', false],
    ["'nonce-ab c'", false],
    ["'nonce-abc;'", false],
  ])('isNonce(%s) is %s', (source, expected) => {
    expect(isNonce(source)).toBe(expected);
  });

  it.each([
    ["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='", true],
    ["'sha384-abc'", true],
    ["'sha512-abc_-'", true],
    ["'sha1-abc'", false],
    ['sha256-abc', false],
    ["'sha256-abc' 'unsafe-inline'", false],
  ])('isHash(%s) is %s', (source, expected) => {
    expect(isHash(source)).toBe(expected);
  });
});

describe('effective sources (what a CSP3 browser honours)', () => {
  it("drops 'unsafe-inline' beside a nonce or a hash, in script and style directives", () => {
    expect(effectiveSources('script-src', ["'unsafe-inline'", "'nonce-abcdefgh'"])).toEqual([
      "'nonce-abcdefgh'",
    ]);
    expect(effectiveSources('style-src', ["'unsafe-inline'", "'sha256-abc='"])).toEqual(["'sha256-abc='"]);
    expect(effectiveSources('style-src', ["'unsafe-inline'", "'self'"])).toEqual([
      "'unsafe-inline'",
      "'self'",
    ]);
  });

  it("under 'strict-dynamic' drops hosts, schemes, 'self' and 'unsafe-inline' — in script directives only", () => {
    const strict = [
      "'nonce-abcdefgh'",
      "'strict-dynamic'",
      "'unsafe-inline'",
      'https:',
      "'self'",
      'https://cdn.example',
    ];
    expect(effectiveSources('script-src', strict)).toEqual(["'nonce-abcdefgh'", "'strict-dynamic'"]);
    expect(effectiveSources('img-src', ['https:', "'strict-dynamic'"])).toEqual([
      'https:',
      "'strict-dynamic'",
    ]);
  });
});

describe('source order', () => {
  it('keywords (vocabulary order), nonces, hashes, schemes, hosts; deduplicated', () => {
    const sorted = sortSources([
      'https://b.example',
      'data:',
      "'sha256-B='",
      "'report-sample'",
      "'nonce-abcdefgh'",
      'https://a.example',
      "'self'",
      "'sha256-A='",
      'blob:',
      "'self'",
    ]);
    expect(sorted).toEqual([
      "'self'",
      "'report-sample'",
      "'nonce-abcdefgh'",
      "'sha256-A='",
      "'sha256-B='",
      'blob:',
      'data:',
      'https://a.example',
      'https://b.example',
    ]);
  });
});
