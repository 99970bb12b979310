// The product's own policy must pass the evaluation it applies to customers' policies.
import { gradePolicy } from '@csp/shared/csp/grade';
import { describe, expect, it } from 'vitest';
import { OWN_POLICY } from './security-headers';

describe('our own Content-Security-Policy', () => {
  it("has no high-severity finding from Google's csp_evaluator", () => {
    const high = gradePolicy(OWN_POLICY, { checks: 'default' }).filter((f) => f.severity === 'high');
    expect(high).toEqual([]);
  });

  it('allows no inline script, no plugins, no framing and no base rewriting', () => {
    expect(OWN_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(OWN_POLICY).toMatch(/object-src 'none'/);
    expect(OWN_POLICY).toMatch(/base-uri 'none'/);
    expect(OWN_POLICY).toMatch(/frame-ancestors 'none'/);
  });

  it('would be flagged if it allowed inline script (the check can fail)', () => {
    const weakened = OWN_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");
    expect(gradePolicy(weakened, { checks: 'default' }).some((f) => f.severity === 'high')).toBe(true);
  });
});
