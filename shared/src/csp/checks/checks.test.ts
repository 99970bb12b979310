// Each check fires on the example policy its comment gives, and stays quiet where it should.
import { describe, expect, it } from 'vitest';
import { rulesOfHeader as parseHeader } from '../audit';
import type { PolicyFinding } from '../finding';
import type { CspRules } from '../policy';
import { broadSourcesCheck } from './broad-sources';
import { type AuditContext, auditContextSchema, type PolicyCheck, parsePolicy } from './check';
import { cspEvaluatorCheck } from './csp-evaluator';
import { frameAncestorsCheck } from './frame-ancestors';
import { generatorCheck } from './generator';
import { nonceDeliveryCheck } from './nonce-delivery';
import { reportOnlyCheck } from './report-only';
import { reportingCheck } from './reporting';
import { unsafeEvalCheck } from './unsafe-eval';
import { unsafeInlineCheck } from './unsafe-inline';

const NONCE = "'nonce-abcdefghijklmnopqrstuv'";

function run(check: PolicyCheck, policy: string | CspRules, context: Partial<AuditContext> = {}) {
  const rules = typeof policy === 'string' ? parseHeader(policy) : policy;
  return check(parsePolicy(rules), auditContextSchema.parse(context));
}
const brief = (findings: PolicyFinding[]) =>
  findings.map((f) => `${f.severity} ${f.code} ${f.directive}${f.value ? ` ${f.value}` : ''}`);

describe('unsafeInlineCheck', () => {
  it('high for scripts, medium for styles, with a fix', () => {
    expect(brief(run(unsafeInlineCheck, "script-src 'self' 'unsafe-inline'"))).toEqual([
      "high unsafe-inline script-src 'unsafe-inline'",
    ]);
    expect(brief(run(unsafeInlineCheck, "style-src 'self' 'unsafe-inline'"))).toEqual([
      "medium unsafe-inline style-src 'unsafe-inline'",
    ]);
    expect(run(unsafeInlineCheck, "default-src 'unsafe-inline'")[0]?.fix).toMatch(/hash or nonce/);
  });

  it('info only when a nonce, a hash or strict-dynamic makes browsers ignore it', () => {
    expect(brief(run(unsafeInlineCheck, `script-src ${NONCE} 'unsafe-inline'`))).toEqual([
      "info unsafe-inline-fallback script-src 'unsafe-inline'",
    ]);
    expect(brief(run(unsafeInlineCheck, "style-src 'sha256-abc=' 'unsafe-inline'"))[0]).toMatch(/^info/);
  });

  it('keywords are case-insensitive; other directives are not its business', () => {
    expect(brief(run(unsafeInlineCheck, "script-src 'UNSAFE-INLINE'"))[0]).toMatch(/^high/);
    expect(run(unsafeInlineCheck, "img-src 'unsafe-inline'; script-src 'self'")).toEqual([]);
  });
});

describe('unsafeEvalCheck', () => {
  it("medium for 'unsafe-eval', low for 'unsafe-hashes'; 'wasm-unsafe-eval' is fine", () => {
    expect(brief(run(unsafeEvalCheck, "script-src 'self' 'unsafe-eval'"))).toEqual([
      "medium unsafe-eval script-src 'unsafe-eval'",
    ]);
    expect(brief(run(unsafeEvalCheck, "script-src-attr 'unsafe-hashes' 'sha256-abc='"))).toEqual([
      "low unsafe-hashes script-src-attr 'unsafe-hashes'",
    ]);
    expect(run(unsafeEvalCheck, "script-src 'self' 'wasm-unsafe-eval'")).toEqual([]);
  });
});

describe('broadSourcesCheck', () => {
  it('high for * and whole schemes where code runs, medium for wildcard hosts, low elsewhere', () => {
    expect(brief(run(broadSourcesCheck, "script-src 'self' https:"))).toEqual([
      'high broad-source script-src https:',
    ]);
    expect(brief(run(broadSourcesCheck, 'script-src data:'))).toEqual(['high broad-source script-src data:']);
    expect(brief(run(broadSourcesCheck, 'script-src *.cdn.example'))).toEqual([
      'medium broad-source script-src *.cdn.example',
    ]);
    expect(brief(run(broadSourcesCheck, 'img-src *'))).toEqual(['low broad-source img-src *']);
  });

  it("https: under 'strict-dynamic' is an ignored fallback; data: images are normal", () => {
    expect(run(broadSourcesCheck, `script-src ${NONCE} 'strict-dynamic' https:`)).toEqual([]);
    expect(run(broadSourcesCheck, "img-src 'self' data:")).toEqual([]);
    expect(run(broadSourcesCheck, 'script-src https://cdn.example')).toEqual([]);
  });
});

describe('frameAncestorsCheck', () => {
  it('low when frame-ancestors is missing (default-src does not cover it)', () => {
    expect(brief(run(frameAncestorsCheck, "default-src 'self'"))).toEqual([
      'low missing-frame-ancestors frame-ancestors',
    ]);
    expect(run(frameAncestorsCheck, "default-src 'self'; frame-ancestors 'none'")).toEqual([]);
  });
});

describe('reportingCheck', () => {
  it('info without report-uri, low with report-to alone, nothing with report-uri', () => {
    expect(brief(run(reportingCheck, "default-src 'self'"))).toEqual(['info missing-report-uri report-uri']);
    expect(brief(run(reportingCheck, "default-src 'self'; report-to csp-endpoint"))).toEqual([
      'low report-to-only report-uri',
    ]);
    expect(run(reportingCheck, "default-src 'self'; report-uri /r; report-to csp-endpoint")).toEqual([]);
  });
});

describe('nonceDeliveryCheck', () => {
  it('medium only when a nonce is written into static configuration', () => {
    const policy = `script-src ${NONCE}; style-src ${NONCE}`;
    expect(brief(run(nonceDeliveryCheck, policy, { nonceDelivery: 'static' }))).toEqual([
      'medium static-nonce script-src, style-src',
    ]);
    expect(run(nonceDeliveryCheck, policy, { nonceDelivery: 'per-request' })).toEqual([]);
    expect(run(nonceDeliveryCheck, policy)).toEqual([]);
    expect(run(nonceDeliveryCheck, "script-src 'self'", { nonceDelivery: 'static' })).toEqual([]);
  });
});

describe('reportOnlyCheck', () => {
  it('says a report-only policy blocks nothing', () => {
    expect(brief(run(reportOnlyCheck, "default-src 'self'", { reportOnly: true }))).toEqual([
      'info report-only ',
    ]);
    expect(run(reportOnlyCheck, "default-src 'self'")).toEqual([]);
  });
});

describe('generatorCheck', () => {
  it("passes the generator's findings through as written", () => {
    const finding: PolicyFinding = {
      severity: 'low',
      directive: 'style-src-attr',
      code: 'unstable-inline-style',
      description: 'x',
      checker: 'generator',
    };
    expect(run(generatorCheck, "default-src 'self'", { generatorFindings: [finding] })).toEqual([finding]);
  });
});

describe('cspEvaluatorCheck', () => {
  it("brings csp_evaluator's findings, leaving out what our checks report", () => {
    const findings = run(cspEvaluatorCheck, "script-src 'unsafe-inline' https://www.google.com");
    const codes = findings.map((f) => f.code);
    expect(codes).toContain('SCRIPT_ALLOWLIST_BYPASS');
    expect(codes).toContain('MISSING_DIRECTIVES');
    expect(codes).not.toContain('SCRIPT_UNSAFE_INLINE');
    expect(findings.every((f) => f.checker === 'csp_evaluator')).toBe(true);
    // It says what is wrong; we add what to do.
    expect(findings.find((f) => f.code === 'SCRIPT_ALLOWLIST_BYPASS')?.fix).toMatch(/strict-dynamic/);
  });
});
