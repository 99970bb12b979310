import { describe, expect, it } from 'vitest';
import { auditPolicy } from '../audit';

const RULES = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'report-to': ['g'],
  'report-uri': ['/r'],
};
const codes = (ctx: Parameters<typeof auditPolicy>[1], rules: Record<string, string[]> = RULES) =>
  auditPolicy(rules, ctx).findings.filter((f) => f.checker === 'audit');
const find = (ctx: Parameters<typeof auditPolicy>[1], code: string, rules?: Record<string, string[]>) =>
  codes(ctx, rules).find((f) => f.code === code);

describe('Integrity-Policy in the audit', () => {
  it('enforced while crawled scripts lack integrity: a medium warning naming how many', () => {
    const f = find(
      { integrityPolicy: 'enforce', scriptsWithoutIntegrity: 3 },
      'integrity-policy-scripts-without-integrity',
    );
    expect(f?.severity).toBe('medium');
    expect(f?.description).toMatch(/saw 3 external scripts without an integrity attribute/);
    expect(f?.description).toContain('Chromium 138, Firefox 145, Safari 26');
    expect(f?.fix).toMatch(/Report-Only first/);
  });

  it('enforced, nothing known: low; every script with integrity: nothing', () => {
    expect(find({ integrityPolicy: 'enforce' }, 'integrity-policy-scripts-without-integrity')?.severity).toBe(
      'low',
    );
    expect(
      find(
        { integrityPolicy: 'enforce', scriptsWithoutIntegrity: 0 },
        'integrity-policy-scripts-without-integrity',
      ),
    ).toBeUndefined();
  });

  it('report-only: information only, never an issue', () => {
    const f = find(
      { integrityPolicy: 'report-only', scriptsWithoutIntegrity: 1 },
      'integrity-policy-report-only',
    );
    expect(f?.severity).toBe('info');
    expect(f?.description).toMatch(/the 1 external script the crawl saw/);
    expect(
      codes({ integrityPolicy: 'off', scriptsWithoutIntegrity: 5 }).some((x) =>
        x.code.startsWith('integrity'),
      ),
    ).toBe(false);
  });
});

describe("'report-sha256' in the audit", () => {
  const withHash = { ...RULES, 'script-src': ["'self'", "'report-sha256'"] };

  it('is information: harmless where unsupported, and not an invalid keyword', () => {
    const audit = auditPolicy(withHash);
    const f = audit.findings.find((x) => x.code === 'report-sha256');
    expect(f?.severity).toBe('info');
    expect(f?.description).toMatch(/Chromium 133/);
    expect(f?.description).toMatch(/harmless/);
    expect(audit.findings.some((x) => x.code === 'INVALID_KEYWORD')).toBe(false);
    expect(audit.score).toBe(auditPolicy(RULES).score);
  });

  it('without report-to no digest is sent: low', () => {
    const { 'report-to': _g, ...noReportTo } = withHash;
    expect(find({}, 'report-sha256-without-report-to', noReportTo)?.severity).toBe('low');
    expect(find({}, 'report-sha256-without-report-to', withHash)).toBeUndefined();
  });
});

describe('Trusted Types in the audit', () => {
  it('enforced without a clean dry run: a warning to go report-only first', () => {
    for (const readiness of [null, 'far', 'default-policy'] as const) {
      const f = find(
        { trustedTypes: 'enforce', trustedTypesReadiness: readiness },
        'trusted-types-enforced-first',
      );
      expect(f?.severity, String(readiness)).toBe('low');
      expect(f?.fix).toMatch(/report-only first/);
    }
    expect(
      find({ trustedTypes: 'enforce', trustedTypesReadiness: 'ready' }, 'trusted-types-enforced-first'),
    ).toBeUndefined();
  });

  it('report-only: information; off: nothing', () => {
    expect(find({ trustedTypes: 'report-only' }, 'trusted-types-report-only')?.severity).toBe('info');
    expect(codes({}).some((f) => f.code.startsWith('trusted-types'))).toBe(false);
  });
});
