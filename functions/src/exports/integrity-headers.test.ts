// A configuration's integrity headers, proven on real servers: the Apache .htaccess and the Nginx include of
// a configuration with Integrity-Policy, 'report-sha256' and a report-only Trusted Types policy are loaded
// into Debian's apache2 and nginx on loopback, and every header they serve equals the composed one byte for
// byte, once each, on a page and on an error page: the policy, Reporting-Endpoints (one for both reporting
// users), Integrity-Policy(-Report-Only) and the second, report-only CSP header.
import { composePolicy, exportComposed } from '@csp/shared/configurations/compose';
import { configurationBodySchema } from '@csp/shared/schemas/configuration';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fetchHeaders,
  findBinary,
  type RunningServer,
  startApache,
  startNginx,
} from '../testing/web-servers';

/** A `$` and a `%` in the report URL: nginx would read a variable, Apache a format specifier. */
const ENDPOINT = 'https://csp.example/r$1/a%20b?domain=6a1f0c2e-1b7d-4c8e-9f00-3d2a1b0c9e8f&a=1';

const CASES = {
  'report-only rollout step (policy enforced, Integrity-Policy and Trusted Types report-only)': {
    reportOnlyPolicy: false,
    integrityPolicy: 'report-only',
    reportSha256: true,
    trustedTypes: 'report-only',
    trustedTypesPolicies: ['dompurify', 'app#1', "'allow-duplicates'"],
  },
  'everything enforced': {
    reportOnlyPolicy: false,
    integrityPolicy: 'enforce',
    reportSha256: true,
    trustedTypes: 'enforce',
    trustedTypesPolicies: ['app'],
  },
  'policy report-only, Trusted Types enforced in a header of their own': {
    reportOnlyPolicy: true,
    integrityPolicy: 'enforce',
    reportSha256: false,
    trustedTypes: 'enforce',
    trustedTypesPolicies: [],
  },
} as const;

const composed = (name: keyof typeof CASES) =>
  composePolicy(
    configurationBodySchema.parse({
      name: 'x',
      cspRules: { 'default-src': ["'none'"], 'script-src': ["'self'", 'https://cdn.example/a%20b'] },
      metadata: CASES[name],
    }),
    ENDPOINT,
  );

/** Every composed header, exactly once and as composed, on a page and on an error page (`always`). */
async function expectServed(server: RunningServer, name: keyof typeof CASES) {
  const p = composed(name);
  const expected = exportComposed('plain', p).headers;
  // Two CSP headers at most (the policy and the Trusted Types one), of different modes.
  expect(new Set(expected.map((h) => h.name)).size).toBe(expected.length);
  expect(expected.map((h) => h.name)).toEqual(
    expect.arrayContaining([
      'Reporting-Endpoints',
      p.integrityPolicy === 'enforce' ? 'Integrity-Policy' : 'Integrity-Policy-Report-Only',
    ]),
  );
  for (const [url, status] of [
    [server.url, 200],
    [server.missingUrl, 404],
  ] as const) {
    const res = await fetchHeaders(url);
    expect(res.status).toBe(status);
    for (const h of expected)
      expect(res.headers.get(h.name.toLowerCase()), `${h.name} on ${status}`).toEqual([h.value]);
    for (const other of [
      'integrity-policy',
      'integrity-policy-report-only',
      'content-security-policy',
      'content-security-policy-report-only',
    ]) {
      if (!expected.some((h) => h.name.toLowerCase() === other))
        expect(res.headers.has(other), other).toBe(false);
    }
  }
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const apache = findBinary('apache2');
const nginx = findBinary('nginx');
if (!apache) console.log('skipped: needs apache2');
if (!nginx) console.log('skipped: needs nginx');

const names = Object.keys(CASES) as Array<keyof typeof CASES>;

describe.skipIf(!apache)('Apache serves a configuration with its integrity headers', () => {
  it.each(names)('%s', async (name) => {
    running = await startApache(apache!, exportComposed('apache', composed(name)).content);
    await expectServed(running, name);
  });
});

describe.skipIf(!nginx)('Nginx serves a configuration with its integrity headers', () => {
  it.each(names)('%s', async (name) => {
    running = await startNginx(nginx!, exportComposed('nginx', composed(name)).content);
    await expectServed(running, name);
  });
});
