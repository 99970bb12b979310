// The product's own policy must pass the evaluation it applies to customers' policies.
import { auditPolicy, rulesOfHeader } from '@csp/shared/csp/audit';
import { describe, expect, it } from 'vitest';
import { OWN_POLICY } from './security-headers';

describe('our own Content-Security-Policy', () => {
  it('grades A or better in the audit we apply to customers (csp_evaluator included), with no issue', () => {
    const audit = auditPolicy(rulesOfHeader(OWN_POLICY));
    expect(audit.issues).toBe(0);
    expect(audit.grade).toMatch(/^A/);
  });

  it('allows no inline script, no plugins, no framing and no base rewriting', () => {
    expect(OWN_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(OWN_POLICY).toMatch(/object-src 'none'/);
    expect(OWN_POLICY).toMatch(/base-uri 'none'/);
    expect(OWN_POLICY).toMatch(/frame-ancestors 'none'/);
  });

  it('would be flagged if it allowed inline script (the check can fail)', () => {
    const weakened = OWN_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");
    expect(auditPolicy(rulesOfHeader(weakened)).findings.some((f) => f.severity === 'high')).toBe(true);
  });
});
