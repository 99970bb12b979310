import { describe, expect, it } from 'vitest';
import {
  enginesText,
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

  it('names the browsers that tried the policy, and the one it could not use and why', () => {
    const base = { pagesChecked: 10, violations: 0, samples: [] };
    expect(enginesText(base)).toBeNull();
    expect(
      enginesText({
        ...base,
        engines: [
          { engine: 'chromium', pagesChecked: 10, violations: 0 },
          { engine: 'firefox', version: 'firefox/153.7.0', pagesChecked: 10, violations: 0 },
        ],
      }),
    ).toBe('Verified in Chromium and Firefox.');
    expect(
      enginesText({
        ...base,
        engines: [
          { engine: 'chromium', pagesChecked: 10, violations: 0 },
          { engine: 'firefox', unavailable: 'the crawler in AWS runs Chromium only (Lambda has no Firefox)' },
        ],
      }),
    ).toBe(
      'Verified in Chromium only. Firefox could not be used: the crawler in AWS runs Chromium only (Lambda has no Firefox).',
    );
  });
});
