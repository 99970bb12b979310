import { describe, expect, it } from 'vitest';
import { parsePolicyList, parseSerializedPolicy, SERVED_POLICY_MAX_CHARS } from './parse-policy';

describe('parseSerializedPolicy', () => {
  it('reads directives and sources as browsers do: lowercased names, first repeat wins, any whitespace', () => {
    expect(
      parseSerializedPolicy(
        "Default-Src 'self';\tscript-src  'self'\nhttps://cdn.example.com ; script-src *; ;img-src data:",
      ),
    ).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'", 'https://cdn.example.com'],
      'img-src': ['data:'],
    });
  });

  it('keeps valueless directives and drops names outside the grammar', () => {
    expect(parseSerializedPolicy('upgrade-insecure-requests; __proto__ x; sc_ript a; constructor b')).toEqual(
      {
        'upgrade-insecure-requests': [],
        constructor: ['b'],
      },
    );
    expect(Object.getPrototypeOf(parseSerializedPolicy('a b'))).toBe(Object.prototype);
  });

  it('bounds what it reads', () => {
    const huge = `default-src 'self'; img-src ${'x'.repeat(SERVED_POLICY_MAX_CHARS)}; script-src 'none'`;
    const rules = parseSerializedPolicy(huge);
    expect(rules['default-src']).toEqual(["'self'"]);
    expect(rules['script-src']).toBeUndefined();
  });
});

describe('parsePolicyList', () => {
  it('splits a header value into its policies and leaves empty ones out', () => {
    expect(parsePolicyList("default-src 'self', script-src 'none', ,")).toEqual([
      { 'default-src': ["'self'"] },
      { 'script-src': ["'none'"] },
    ]);
    expect(parsePolicyList('')).toEqual([]);
  });
});
