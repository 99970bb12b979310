import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '../csp/serialize';
import { configurationBodySchema, configurationMetadataSchema } from '../schemas/configuration';
import { auditComposed } from './audit-composed';
import { composePolicy, exportComposed } from './compose';

const ENDPOINT = 'https://csp.example/api/uri-report?domain=0f0e';
const RULES = {
  'default-src': ["'none'"],
  'script-src': ["'self'", 'https://cdn.example'],
  'img-src': ["'self'"],
};

const config = (metadata: Record<string, unknown>, patch: Record<string, unknown> = {}) =>
  configurationBodySchema.parse({ name: 'Main', cspRules: RULES, metadata, ...patch });

const headerNames = (p: ReturnType<typeof composePolicy>) => p.extraHeaders.map((h) => h.name);

describe('configuration metadata: the integrity options', () => {
  it('default to off, so a configuration saved before them parses unchanged', () => {
    expect(configurationMetadataSchema.parse({ nonce: null, includeNonce: false })).toMatchObject({
      integrityPolicy: 'off',
      reportSha256: false,
      trustedTypes: 'off',
      trustedTypesPolicies: [],
    });
    const p = composePolicy(config({}), ENDPOINT);
    expect(p.extraHeaders).toEqual([]);
    expect(p.notices).toEqual([]);
  });

  it('refuse modes and names outside the grammar, with a clear message', () => {
    const bad = (metadata: Record<string, unknown>) =>
      configurationBodySchema.safeParse({ name: 'x', cspRules: {}, metadata }).error?.issues[0]?.message;
    expect(bad({ integrityPolicy: 'always' })).toMatch(/integrityPolicy must be/);
    expect(bad({ trustedTypes: true })).toMatch(/trustedTypes must be/);
    expect(bad({ reportSha256: 'yes' })).toMatch(/reportSha256/);
    expect(bad({ trustedTypesPolicies: ['a b'] })).toMatch(/policy name has letters/);
    expect(bad({ trustedTypesPolicies: ["x'; script-src *"] })).toMatch(/policy name has letters/);
    expect(bad({ trustedTypesPolicies: ['*'] })).toMatch(/policy name has letters/);
    expect(bad({ trustedTypesPolicies: ['x'.repeat(129)] })).toMatch(/too long/);
    expect(bad({ trustedTypesPolicies: Array.from({ length: 51 }, (_, i) => `p${i}`) })).toMatch(
      /At most 50/,
    );
    expect(bad({ trustedTypesPolicies: ["'none'", 'a'] })).toMatch(/'none' cannot stand/);
    expect(
      configurationMetadataSchema.parse({
        trustedTypesPolicies: ['dompurify', 'my-app#1', "'allow-duplicates'"],
      }).trustedTypesPolicies,
    ).toEqual(['dompurify', 'my-app#1', "'allow-duplicates'"]);
  });
});

describe('composePolicy: Integrity-Policy', () => {
  it('report-only: Integrity-Policy-Report-Only reporting to the CSP group', () => {
    const p = composePolicy(config({ integrityPolicy: 'report-only' }), ENDPOINT);
    expect(p.extraHeaders).toEqual([
      {
        name: 'Integrity-Policy-Report-Only',
        value: 'blocked-destinations=(script), endpoints=(csp-endpoint)',
      },
    ]);
    expect(p.rules['report-to']).toEqual(['csp-endpoint']);
  });

  it('enforce: Integrity-Policy; with reporting off, no endpoints and a notice for report-only only', () => {
    expect(composePolicy(config({ integrityPolicy: 'enforce' }), ENDPOINT).extraHeaders[0]).toEqual({
      name: 'Integrity-Policy',
      value: 'blocked-destinations=(script), endpoints=(csp-endpoint)',
    });
    const off = composePolicy(config({ integrityPolicy: 'enforce' }, { includeReportUri: false }), ENDPOINT);
    expect(off.extraHeaders).toEqual([{ name: 'Integrity-Policy', value: 'blocked-destinations=(script)' }]);
    expect(off.notices).toEqual([]);
    const ro = composePolicy(
      config({ integrityPolicy: 'report-only' }, { includeReportUri: false }),
      ENDPOINT,
    );
    expect(ro.extraHeaders[0]?.value).toBe('blocked-destinations=(script)');
    expect(ro.notices.join(' ')).toMatch(/only logs to the browser console/);
  });
});

describe("composePolicy: 'report-sha256'", () => {
  it('goes into the directive browsers read for <script>: script-src-elem, script-src, else default-src', () => {
    expect(composePolicy(config({ reportSha256: true }), ENDPOINT).rules['script-src']).toEqual([
      "'self'",
      'https://cdn.example',
      "'report-sha256'",
    ]);
    const elem = composePolicy(
      config({ reportSha256: true }, { cspRules: { ...RULES, 'script-src-elem': ["'self'"] } }),
      ENDPOINT,
    );
    expect(elem.reportSha256In).toBe('script-src-elem');
    expect(elem.rules['script-src-elem']).toEqual(["'self'", "'report-sha256'"]);
    expect(elem.rules['script-src']).not.toContain("'report-sha256'");
    const fallback = composePolicy(
      config({ reportSha256: true }, { cspRules: { 'default-src': ["'self'"] } }),
      ENDPOINT,
    );
    expect(fallback.rules['default-src']).toEqual(["'self'", "'report-sha256'"]);
    // The discovery policy is default-src 'self': it carries it there.
    expect(
      composePolicy(config({ reportSha256: true }, { reportOnlyMode: true }), ENDPOINT).reportSha256In,
    ).toBe('default-src');
  });

  it('needs report-to: with reporting off it is left out and says why', () => {
    const p = composePolicy(config({ reportSha256: true }, { includeReportUri: false }), ENDPOINT);
    expect(p.rules['script-src']).not.toContain("'report-sha256'");
    expect(p.reportSha256In).toBeNull();
    expect(p.notices.join(' ')).toMatch(/reporting is off/);
    expect(exportComposed('plain', p).warnings[0]).toMatch(/reporting is off/);
    // No endpoint known at all (the watch composes without one): the same.
    expect(composePolicy(config({ reportSha256: true }), null).reportSha256In).toBeNull();
  });

  it("never makes up a script-src, nor adds it beside 'none'", () => {
    const none = composePolicy(
      config({ reportSha256: true }, { cspRules: { 'img-src': ["'self'"] } }),
      ENDPOINT,
    );
    expect(none.rules['script-src']).toBeUndefined();
    expect(none.notices.join(' ')).toMatch(/no script-src or default-src/);
    const blocked = composePolicy(
      config({ reportSha256: true }, { cspRules: { 'script-src': ["'none'"] } }),
      ENDPOINT,
    );
    expect(blocked.rules['script-src']).toEqual(["'none'"]);
  });
});

describe('composePolicy: Trusted Types', () => {
  const TT = {
    trustedTypes: 'report-only',
    trustedTypesPolicies: ['dompurify', 'dompurify', "'allow-duplicates'"],
  };

  it('report-only beside an enforced policy: a second, report-only header with the same reporting', () => {
    const p = composePolicy(config(TT), ENDPOINT);
    expect(p.rules['require-trusted-types-for']).toBeUndefined();
    expect(p.extraHeaders).toEqual([
      {
        name: 'Content-Security-Policy-Report-Only',
        value: `require-trusted-types-for 'script'; trusted-types dompurify 'allow-duplicates'; report-uri ${ENDPOINT}; report-to csp-endpoint`,
      },
    ]);
  });

  it('in the policy itself when the modes match (report-only policy, or both enforced)', () => {
    const ro = composePolicy(config({ ...TT, reportOnlyPolicy: true }), ENDPOINT);
    expect(ro.extraHeaders).toEqual([]);
    expect(ro.rules['require-trusted-types-for']).toEqual(["'script'"]);
    expect(ro.rules['trusted-types']).toEqual(['dompurify', "'allow-duplicates'"]);
    const enforced = composePolicy(config({ trustedTypes: 'enforce' }), ENDPOINT);
    expect(enforced.rules['require-trusted-types-for']).toEqual(["'script'"]);
    // No names: no trusted-types directive, any policy name may be created.
    expect(enforced.rules['trusted-types']).toBeUndefined();
  });

  it('enforced beside a report-only policy: an enforced header of its own', () => {
    const p = composePolicy(config({ trustedTypes: 'enforce', reportOnlyPolicy: true }), ENDPOINT);
    expect(headerNames(p)).toEqual(['Content-Security-Policy']);
    expect(p.headerName).toBe('Content-Security-Policy-Report-Only');
  });

  it('report-only without reporting: the header still goes, with a notice', () => {
    const p = composePolicy(config(TT, { includeReportUri: false }), ENDPOINT);
    expect(p.extraHeaders[0]?.value).toBe(
      "require-trusted-types-for 'script'; trusted-types dompurify 'allow-duplicates'",
    );
    expect(p.notices.join(' ')).toMatch(/no reporting/);
  });
});

describe('exportComposed: every format carries the extra headers', () => {
  const p = composePolicy(
    config({
      integrityPolicy: 'report-only',
      reportSha256: true,
      trustedTypes: 'report-only',
      trustedTypesPolicies: ['app'],
    }),
    ENDPOINT,
  );
  const ip = 'blocked-destinations=(script), endpoints=(csp-endpoint)';
  const tt = `require-trusted-types-for 'script'; trusted-types app; report-uri ${ENDPOINT}; report-to csp-endpoint`;

  it.each(EXPORT_FORMATS.filter((f) => f !== 'meta'))(
    '%s: the headers, after the policy and Reporting-Endpoints',
    (format) => {
      const e = exportComposed(format, p);
      expect(e.headers.map((h) => h.name)).toEqual([
        'Content-Security-Policy',
        'Reporting-Endpoints',
        'Integrity-Policy-Report-Only',
        'Content-Security-Policy-Report-Only',
      ]);
      expect(e.headers.slice(2)).toEqual(p.extraHeaders);
      expect(e.headers[0]?.value).toContain("'report-sha256'");
      expect(e.content).toContain('Integrity-Policy-Report-Only');
      expect(e.content).toContain('blocked-destinations=(script)');
    },
  );

  it('each server writes them in its own syntax', () => {
    expect(exportComposed('apache', p).content).toContain(
      `  Header always set Integrity-Policy-Report-Only "${ip}"\n`,
    );
    expect(exportComposed('apache', p).content).toContain(
      `  Header always set Content-Security-Policy-Report-Only "${tt}"\n`,
    );
    expect(exportComposed('nginx', p).content).toContain(
      `add_header Integrity-Policy-Report-Only "${ip}" always;\n`,
    );
    expect(exportComposed('nginx', p).content).toContain(
      `add_header Content-Security-Policy-Report-Only "${tt}" always;\n`,
    );
    expect(exportComposed('iis', p).content).toContain(
      `<remove name="Integrity-Policy-Report-Only" />\n        <add name="Integrity-Policy-Report-Only" value="${ip}" />`,
    );
    expect(exportComposed('plain', p).content).toContain(
      `\nIntegrity-Policy-Report-Only: ${ip}\nContent-Security-Policy-Report-Only: ${tt}\n`,
    );
  });

  it('meta: cannot carry them, and says so for each', () => {
    const e = exportComposed('meta', p);
    expect(e.content).not.toContain('Integrity-Policy');
    expect(e.content).not.toContain('require-trusted-types-for');
    expect(e.warnings.filter((w) => /cannot be delivered by a <meta> tag/.test(w))).toHaveLength(2);
    expect(e.headers).toEqual([]);
  });

  it('the audit knows them: no invalid-keyword finding, no advice to add Trusted Types', () => {
    const codes = auditComposed(p).findings.map((f) => f.code);
    expect(codes).toContain('report-sha256');
    expect(codes).toContain('integrity-policy-report-only');
    expect(codes).toContain('trusted-types-report-only');
    expect(codes).not.toContain('INVALID_KEYWORD');
    expect(codes).not.toContain('REQUIRE_TRUSTED_TYPES_FOR_SCRIPTS');
  });
});
