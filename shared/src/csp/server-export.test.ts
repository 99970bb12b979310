// The analysis page and the rules generator export a policy through serverExport: the same policy in the
// same mode gives the same file from both, and csp-policy.txt keeps whether the policy is enforced.
import { describe, expect, it } from 'vitest';
import { composePolicy, exportComposed } from '../configurations/compose';
import { configurationBodySchema } from '../schemas/configuration';
import { NONCE_PLACEHOLDER } from './generate';
import { EXPORT_FORMATS } from './serialize';
import { serverExport } from './server-export';

const ENDPOINT = 'https://csp.example/api/uri-report?domain=0f0e';
/** A generated strict policy: the nonce is the placeholder the application is told to replace. */
const STRICT = {
  'default-src': ["'none'"],
  'script-src': ["'strict-dynamic'", `'nonce-${NONCE_PLACEHOLDER}'`, "'sha256-abc='"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'report-uri': [ENDPOINT],
  'report-to': ['csp-endpoint'],
};

const saved = (reportOnlyPolicy: boolean, serverType: 'apache' | 'nginx' | 'iis') =>
  composePolicy(
    configurationBodySchema.parse({
      name: 'Production policy',
      cspRules: STRICT,
      serverType,
      metadata: { reportOnlyPolicy },
    }),
    ENDPOINT,
  );

describe('serverExport', () => {
  it("the strict policy's Nginx export makes the nonce $request_id, from the analysis as from a configuration", () => {
    const fromAnalysis = serverExport('nginx', STRICT, { reportOnly: false });
    expect(fromAnalysis.content).toContain("'nonce-$request_id'");
    expect(fromAnalysis.content).not.toContain(NONCE_PLACEHOLDER);
    expect(fromAnalysis.warnings.join(' ')).not.toMatch(/nonce/);
    // The configuration's server type does not change another format's export.
    for (const serverType of ['apache', 'nginx', 'iis'] as const) {
      expect(exportComposed('nginx', saved(false, serverType))).toEqual(fromAnalysis);
    }
  });

  it('every format is the same from both places, enforced and report-only', () => {
    for (const reportOnly of [false, true]) {
      for (const format of EXPORT_FORMATS) {
        expect(exportComposed(format, saved(reportOnly, 'nginx')), `${format} ${reportOnly}`).toEqual(
          serverExport(format, STRICT, { reportOnly }),
        );
      }
    }
  });

  it('csp-policy.txt names its header', () => {
    expect(serverExport('plain', STRICT, { reportOnly: false }).content).toMatch(
      /^Content-Security-Policy: default-src 'none'; /,
    );
    expect(exportComposed('plain', saved(true, 'apache')).content).toMatch(
      /^Content-Security-Policy-Report-Only: default-src 'none'; /,
    );
  });
});
