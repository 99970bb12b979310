import { describe, expect, it } from 'vitest';
import { artifactOfPages } from './artifact-factory';
import { auditPolicy } from './audit';
import { generatePolicy } from './generate';
import { issueSources, policyBadge } from './policy-audit';

const NONCE = "'nonce-abcdefghijklmnopqrstuv'";

describe('auditPolicy', () => {
  it('the badge, the issue count and the grade agree', () => {
    const risky = auditPolicy({ 'script-src': ["'self'", "'unsafe-inline'"], 'object-src': ["'none'"] });
    expect(policyBadge(risky)).toBe('Security Issues');
    expect(risky.issues).toBe(
      risky.findings.filter((f) => f.severity === 'high' || f.severity === 'medium').length,
    );
    expect(risky.issues).toBeGreaterThan(0);
    expect(['C', 'D', 'F']).toContain(risky.grade);
    expect(issueSources(risky, 'script-src')).toEqual(new Set(["'unsafe-inline'"]));
  });

  it("a strict policy's ignored 'unsafe-inline' fallback is not an issue: Valid, A band", () => {
    const site = artifactOfPages('https://site.example', {
      '/': [
        { type: 'url', directive: 'script-src-elem', url: 'https://cdn.example/app.js', page: '' },
        { type: 'inline', directive: 'script-src-elem', hash: `sha256-${'A'.repeat(43)}=`, page: '' },
        { type: 'url', directive: 'img-src', url: 'https://site.example/logo.png', page: '' },
      ],
    });
    const strict = generatePolicy(site, { mode: 'strict', nonce: 'abcdefghijklmnop1234' }).rules;
    expect(strict['script-src']).toContain("'unsafe-inline'");
    const audit = auditPolicy(strict);
    expect(audit.findings.map((f) => f.code)).toContain('unsafe-inline-fallback');
    expect(audit.issues).toBe(0);
    expect(policyBadge(audit)).toBe('Valid');
    expect(audit.grade).toMatch(/^A/);
  });

  it('reports each problem once although csp_evaluator sees it too', () => {
    const audit = auditPolicy({ 'script-src': ["'unsafe-inline'", '*'] });
    const inline = audit.findings.filter((f) => f.value === "'unsafe-inline'");
    expect(inline.map((f) => f.checker)).toEqual(['audit']);
    expect(audit.findings.filter((f) => f.value === '*').map((f) => f.checker)).toEqual(['audit']);
  });

  it('a strict nonce policy with everything set is A+', () => {
    const audit = auditPolicy({
      'default-src': ["'self'"],
      'script-src': [NONCE, "'strict-dynamic'", 'https:'],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'frame-ancestors': ["'self'"],
      'require-trusted-types-for': ["'script'"],
      'report-uri': ['https://reports.example/r'],
      'report-to': ['csp-endpoint'],
    });
    expect(audit.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(audit.grade).toBe('A+');
  });

  it('carries the context: report-only and a static nonce', () => {
    const audit = auditPolicy(
      { 'script-src': [NONCE], 'object-src': ["'none'"] },
      { reportOnly: true, nonceDelivery: 'static' },
    );
    const codes = audit.findings.map((f) => f.code);
    expect(codes).toContain('report-only');
    expect(codes).toContain('static-nonce');
  });
});
