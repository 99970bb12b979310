import { describe, expect, it } from 'vitest';
import { policyDrift } from './drift';

describe('policyDrift and reporting directives', () => {
  const saved = { 'default-src': ["'self'"], 'report-uri': ['https://csp.example/api/uri-report?domain=1'] };
  it('where a served policy reports to is not drift when reporting is ignored (the watch)', () => {
    const drift = policyDrift(
      [
        {
          page: 'https://shop.test/',
          headers: {
            'content-security-policy': "default-src 'self'; report-uri /own-endpoint; report-to csp",
          },
        },
      ],
      { rules: saved, reportOnly: false, ignoreReporting: true },
    );
    expect(drift).toEqual({ state: 'matches', header: 'content-security-policy', variants: [] });
  });
  it('is drift when compared exactly (check against an export): reports would go elsewhere', () => {
    const drift = policyDrift(
      [{ page: 'https://shop.test/', headers: { 'content-security-policy': "default-src 'self'" } }],
      { rules: saved, reportOnly: false },
    );
    expect(drift.state).toBe('differs');
    expect(drift.variants[0]?.differences.map((d) => d.directive)).toEqual(['report-uri']);
  });
  it('what it allows still is', () => {
    const drift = policyDrift(
      [{ page: 'https://shop.test/', headers: { 'content-security-policy': "default-src 'self' https:" } }],
      { rules: saved, reportOnly: false, ignoreReporting: true },
    );
    expect(drift.state).toBe('differs');
    expect(drift.variants[0]?.differences).toEqual([
      { directive: 'default-src', change: 'changed', added: ['https:'], removed: [] },
    ]);
  });
});
