import { describe, expect, it } from 'vitest';
import {
  policyNeedsAttention,
  refinementText,
  remainingViolations,
  verificationHeadline,
  verificationHolds,
} from './verification';

const blocked = {
  directive: 'script-src-elem',
  blocked: 'https://cdn.example.net/w.js',
  page: 'https://a.example/',
};

describe('verification', () => {
  it('holds only with 0 violations and nothing remaining', () => {
    expect(verificationHolds({ pagesChecked: 12, violations: 0, samples: [] })).toBe(true);
    expect(verificationHolds({ pagesChecked: 12, violations: 0, samples: [], remaining: [] })).toBe(true);
    expect(verificationHolds({ pagesChecked: 12, violations: 0, samples: [], remaining: [blocked] })).toBe(
      false,
    );
    expect(verificationHolds({ pagesChecked: 12, violations: 2, samples: [] })).toBe(false);
  });

  it('says 0 violations, or how many remain', () => {
    expect(verificationHeadline({ pagesChecked: 12, violations: 0, samples: [] })).toBe(
      'Verified on 12 pages: 0 violations',
    );
    expect(verificationHeadline({ pagesChecked: 10, violations: 2, samples: [] })).toBe(
      'Verified on 10 pages: 2 violations remain',
    );
    const inconsistent = { pagesChecked: 1, violations: 0, samples: [], remaining: [blocked] };
    expect(remainingViolations(inconsistent)).toBe(1);
    expect(verificationHeadline(inconsistent)).toBe('Verified on 1 page: 1 violation remains');
  });

  it('tells a refinement', () => {
    expect(refinementText({ pagesChecked: 5, violations: 0, samples: [] })).toBeNull();
    expect(
      refinementText({ pagesChecked: 5, violations: 0, samples: [], refined: true, firstPassViolations: 3 }),
    ).toBe("refined once from the first pass's 3 violations");
  });

  it('needs attention when flagged or when the verification does not hold', () => {
    const clean = { pagesChecked: 5, violations: 0, samples: [] };
    expect(policyNeedsAttention({ verification: clean })).toBe(false);
    expect(policyNeedsAttention({ verification: clean, needsAttention: true })).toBe(true);
    expect(policyNeedsAttention({ verification: { ...clean, remaining: [blocked] } })).toBe(true);
    expect(policyNeedsAttention({ verification: null })).toBe(false);
  });
});
