import { describe, expect, it } from 'vitest';
import { isTrustedTypesToken, offeredPolicyNames, trustedTypesSources } from './trusted-types-names';

describe('Trusted Types policy names', () => {
  it('takes the grammar of tt-policy-name and the two keywords, nothing that could leave the directive', () => {
    for (const ok of ['dompurify', 'my-app#1', 'a=b_c/d@e.f%20', "'allow-duplicates'", "'none'"]) {
      expect(isTrustedTypesToken(ok), ok).toBe(true);
    }
    for (const bad of ['', '*', 'a b', 'a;b', 'a,b', "'self'", 'é', 'x'.repeat(129)]) {
      expect(isTrustedTypesToken(bad), bad).toBe(false);
    }
  });

  it('offers the names a crawl saw created that the directive can carry, once each, keywords left out', () => {
    const seen = ['dompurify', 'bad name;', 'dompurify', "'none'", "'allow-duplicates'", 'app#1'];
    expect(offeredPolicyNames(seen)).toEqual(['dompurify', 'app#1']);
    expect(offeredPolicyNames(undefined)).toEqual([]);
    expect(offeredPolicyNames(Array.from({ length: 80 }, (_, i) => `p${i}`))).toHaveLength(50);
    expect(trustedTypesSources(['a', 'a', 'b'])).toEqual(['a', 'b']);
  });
});
