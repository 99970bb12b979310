import { describe, expect, it } from 'vitest';
import { auditPolicy } from '../csp/audit';
import { configurationBodySchema } from '../schemas/configuration';
import { auditComposed } from './audit-composed';
import { composedAuditContext, composePolicy, mergeRules, rolloutOf } from './compose';

const ENDPOINT = 'https://csp.example/api/uri-report?domain=0f0e';
const NONCE = 'a'.repeat(64);

const config = (patch: Record<string, unknown> = {}) =>
  configurationBodySchema.parse({
    name: 'Main',
    cspRules: {
      'default-src': ["'none'"],
      'script-src': ["'self'", 'https://cdn.example'],
      'img-src': ["'self'"],
      'report-uri': ['https://old.example/r'],
      'report-to': ['csp-endpoint'],
    },
    ...patch,
  });

describe('composePolicy', () => {
  it('merges custom rules, replaces the base reporting with this domain endpoint, and enforces', () => {
    const p = composePolicy(
      config({ customRules: { 'script-src': ['https://js.stripe.com', "'self'"], 'font-src': ["'self'"] } }),
      ENDPOINT,
    );
    expect(p.rules).toEqual({
      'default-src': ["'none'"],
      'script-src': ["'self'", 'https://cdn.example', 'https://js.stripe.com'],
      'img-src': ["'self'"],
      'font-src': ["'self'"],
      'report-uri': [ENDPOINT],
      'report-to': ['csp-endpoint'],
    });
    expect(p.headerName).toBe('Content-Security-Policy');
    expect(p.rollout).toBe('enforce');
  });

  it("drops 'none' from a directive that gained a source", () => {
    const p = composePolicy(config({ customRules: { 'default-src': ['https://a.example'] } }), null);
    expect(p.rules['default-src']).toEqual(['https://a.example']);
  });

  it('includeReportUri off: no reporting at all', () => {
    const p = composePolicy(config({ includeReportUri: false }), ENDPOINT);
    expect(p.rules['report-uri']).toBeUndefined();
    expect(p.rules['report-to']).toBeUndefined();
  });

  it("the nonce goes into script-src and style-src (style-src created with 'self')", () => {
    const p = composePolicy(config({ metadata: { nonce: NONCE, includeNonce: true } }), ENDPOINT);
    expect(p.rules['script-src']).toContain(`'nonce-${NONCE}'`);
    expect(p.rules['style-src']).toEqual(["'self'", `'nonce-${NONCE}'`]);
    expect(p.nonceDelivery).toBe('static');
    expect(
      composePolicy(config({ metadata: { nonce: NONCE, includeNonce: false } }), null).rules['style-src'],
    ).toBeUndefined();
    expect(
      composePolicy(config({ serverType: 'nginx', metadata: { nonce: NONCE, includeNonce: true } }), null)
        .nonceDelivery,
    ).toBe('per-request');
  });

  it("reportOnlyMode: the spec's minimal default-src 'self' plus the report-uri, under Report-Only", () => {
    const p = composePolicy(
      config({ reportOnlyMode: true, customRules: { 'img-src': ['https://x.example'] } }),
      ENDPOINT,
    );
    expect(p.rules).toEqual({
      'default-src': ["'self'"],
      'report-uri': [ENDPOINT],
      'report-to': ['csp-endpoint'],
    });
    expect(p.headerName).toBe('Content-Security-Policy-Report-Only');
    expect(p.rollout).toBe('discovery');
    expect(composePolicy(config({ reportOnlyMode: true, includeReportUri: false }), ENDPOINT).rules).toEqual({
      'default-src': ["'self'"],
    });
  });

  it('this policy, report-only: the composed policy under the Report-Only header; the audit says so', () => {
    const p = composePolicy(config({ metadata: { reportOnlyPolicy: true } }), ENDPOINT);
    expect(p.rules['script-src']).toEqual(["'self'", 'https://cdn.example']);
    expect(p.headerName).toBe('Content-Security-Policy-Report-Only');
    expect(p.rollout).toBe('report-only');
    const codes = auditPolicy(p.rules, composedAuditContext(p)).findings.map((f) => f.code);
    expect(codes).toContain('report-only');
  });

  it('the roll-out the editor shows is the one composed: discovery wins over this policy report-only', () => {
    expect(rolloutOf({ reportOnlyMode: false, reportOnlyPolicy: false })).toBe('enforce');
    expect(rolloutOf({ reportOnlyMode: false, reportOnlyPolicy: true })).toBe('report-only');
    expect(rolloutOf({ reportOnlyMode: true, reportOnlyPolicy: false })).toBe('discovery');
    expect(rolloutOf({ reportOnlyMode: true, reportOnlyPolicy: true })).toBe('discovery');
    const both = composePolicy(
      config({ reportOnlyMode: true, metadata: { reportOnlyPolicy: true } }),
      ENDPOINT,
    );
    expect(both.rollout).toBe('discovery');
  });
});

describe('maps keyed by names every object inherits', () => {
  // As JSON.parse gives them (stored or sent): `__proto__` is an own key there.
  const base = JSON.parse(
    `{"default-src": ["'self'"], "constructor": ["https://a.example"], "__proto__": ["https://b.example"]}`,
  );
  const custom = JSON.parse(
    '{"constructor": ["https://c.example"], "__proto__": ["https://d.example"], "toString": ["e"], "hasOwnProperty": ["f"], "prototype": ["g"]}',
  );

  it('mergeRules merges them as directives like any other and sets no prototype', () => {
    const merged = mergeRules(base, custom);
    expect(Object.getPrototypeOf(merged)).toBeNull();
    expect(JSON.parse(JSON.stringify(merged))).toEqual(
      JSON.parse(
        `{"default-src": ["'self'"], "constructor": ["https://a.example", "https://c.example"], "__proto__": ["https://b.example", "https://d.example"], "toString": ["e"], "hasOwnProperty": ["f"], "prototype": ["g"]}`,
      ),
    );
    expect(mergeRules({}, {})).toEqual({});
    expect(Object.keys(mergeRules({}, {}))).toEqual([]);
  });

  it('composePolicy and its audit take them, with a nonce and the report endpoint', () => {
    const p = composePolicy(
      {
        cspRules: base,
        customRules: custom,
        includeReportUri: true,
        reportOnlyMode: false,
        serverType: 'apache',
        metadata: { nonce: NONCE, includeNonce: true, reportOnlyPolicy: false },
      },
      ENDPOINT,
    );
    expect(Object.keys(p.rules)).toEqual(
      expect.arrayContaining(['constructor', '__proto__', 'prototype', 'script-src', 'report-uri']),
    );
    expect(Object.hasOwn(p.rules, '__proto__')).toBe(true);
    expect(p.rules['script-src']).toContain(`'nonce-${NONCE}'`);
    expect(auditComposed(p).grade).toMatch(/^[A-F]\+?$/);
    expect(({} as Record<string, unknown>)[0]).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
