// The exports, proven on real servers: each Apache .htaccess and Nginx include is loaded into Debian's own
// apache2 and nginx on loopback, and the header they serve must equal the policy byte for byte (quotes,
// percent signs, dollar signs, query strings, report-only, a long policy, Reporting-Endpoints). The IIS
// web.config is read with an XML parser against the structure IIS's schema gives customHeaders.
import type { CspRules } from '@csp/shared/csp/policy';
import {
  exportApache,
  exportIis,
  exportNginx,
  headerName,
  policyHeaders,
  serializePolicy,
} from '@csp/shared/csp/serialize';
import { serverExport } from '@csp/shared/csp/server-export';
import { SaxesParser } from 'saxes';
import { afterEach, describe, expect, it } from 'vitest';
import {
  fetchHeaders,
  findBinary,
  type RunningServer,
  startApache,
  startNginx,
} from '../testing/web-servers';

const NONCE = 'f3'.repeat(32);
const REPORT_URI = 'https://csp.example/api/uri-report?domain=6a1f0c2e-1b7d-4c8e-9f00-3d2a1b0c9e8f&a=1';
/** A `$` in the report URL reaches Reporting-Endpoints too, where nginx would read it as a variable. */
const DOLLAR_REPORT_URI = 'https://csp.example/r$1/a%20b?domain=6a1f0c2e-1b7d-4c8e-9f00-3d2a1b0c9e8f&a=$b';

/** Policies with everything a header value can carry that a server config might mangle. */
const POLICIES: Record<string, { rules: CspRules; reportOnly?: boolean }> = {
  keywords: {
    rules: {
      'default-src': ["'none'"],
      'script-src': [
        "'self'",
        `'nonce-${NONCE}'`,
        "'sha256-Yl3Jd+9mR/zA0b1c2d3e4f5g6h7i8j9k0l1m2n3o4p5='",
        "'strict-dynamic'",
      ],
      'style-src': ["'self'", "'unsafe-hashes'", "'sha384-Zz9/+abc'"],
      'img-src': ["'self'", 'data:', 'https://cdn.example/a%20b/$c/{d}|e~f'],
      'connect-src': ["'self'", 'wss://live.example:8443', 'https://api.example/v1?x=1&y=2'],
      'frame-ancestors': ["'none'"],
      'upgrade-insecure-requests': [],
      'report-uri': [REPORT_URI],
      'report-to': ['csp-endpoint'],
    },
  },
  'report-only': {
    rules: { 'default-src': ["'self'"], 'report-uri': [DOLLAR_REPORT_URI], 'report-to': ['csp-endpoint'] },
    reportOnly: true,
  },
  long: {
    rules: {
      'default-src': ["'none'"],
      'script-src': [
        "'self'",
        ...Array.from({ length: 60 }, (_, i) => `'sha256-${String(i).padStart(43, 'Q')}='`),
      ],
    },
  },
};

const expectedHeaders = (rules: CspRules, reportOnly = false) =>
  new Map(policyHeaders(rules, { reportOnly }).map((h) => [h.name.toLowerCase(), h.value]));

/** Every header of the export, exactly once, on a page and on an error page (`always`). */
async function expectServed(server: RunningServer, rules: CspRules, reportOnly = false) {
  for (const [url, status] of [
    [server.url, 200],
    [server.missingUrl, 404],
  ] as const) {
    const res = await fetchHeaders(url);
    expect(res.status).toBe(status);
    for (const [header, value] of expectedHeaders(rules, reportOnly)) {
      expect(res.headers.get(header), `${header} on ${status}`).toEqual([value]);
    }
    // Only the mode asked for: an enforcing copy of a report-only policy would break the site.
    expect(res.headers.has(headerName(!reportOnly).toLowerCase())).toBe(false);
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

describe.skipIf(!apache)('Apache (.htaccess, mod_headers)', () => {
  it.each(Object.keys(POLICIES))('serves the %s policy byte for byte', async (name) => {
    const { rules, reportOnly } = POLICIES[name]!;
    running = await startApache(apache!, exportApache(rules, { reportOnly }).content);
    await expectServed(running, rules, reportOnly);
  });
});

describe.skipIf(!nginx)('Nginx (add_header … always)', () => {
  it.each(Object.keys(POLICIES))('serves the %s policy byte for byte', async (name) => {
    const { rules, reportOnly } = POLICIES[name]!;
    running = await startNginx(nginx!, exportNginx(rules, { reportOnly }).content);
    await expectServed(running, rules, reportOnly);
  });

  // serverExport is what the analysis page and the rules generator both export (enforced or report-only).
  it.each([false, true])(
    'makes the nonce $request_id (report-only: %s): fresh for every response, the rest byte for byte',
    async (reportOnly) => {
      const rules = POLICIES.keywords!.rules;
      running = await startNginx(nginx!, serverExport('nginx', rules, { reportOnly }).content);
      const nonces = new Set<string>();
      for (let i = 0; i < 2; i++) {
        const { headers } = await fetchHeaders(running.url);
        const id = headers.get('x-request-id')?.[0] ?? '';
        expect(id).toMatch(/^[0-9a-f]{32}$/);
        const expected = serializePolicy(rules).replace(`'nonce-${NONCE}'`, `'nonce-${id}'`);
        expect(headers.get(headerName(reportOnly).toLowerCase())).toEqual([expected]);
        expect(headers.has(headerName(!reportOnly).toLowerCase())).toBe(false);
        nonces.add(id);
      }
      expect(nonces.size).toBe(2);
    },
  );
});

/** The elements of an XML document as paths (`a/b/c`) with their attributes, in order. */
function xmlElements(xml: string): Array<{ path: string; attributes: Record<string, string> }> {
  const parser = new SaxesParser();
  const stack: string[] = [];
  const out: Array<{ path: string; attributes: Record<string, string> }> = [];
  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    out.push({ path: stack.join('/'), attributes: { ...(tag.attributes as Record<string, string>) } });
  });
  parser.on('closetag', () => stack.pop());
  parser.write(xml).close();
  return out;
}

describe('IIS (web.config)', () => {
  it.each(Object.keys(POLICIES))(
    'the %s policy as customHeaders: remove, then add with the exact value',
    (name) => {
      const { rules, reportOnly } = POLICIES[name]!;
      const elements = xmlElements(exportIis(rules, { reportOnly }).content);
      const base = 'configuration/system.webServer/httpProtocol/customHeaders';
      expect(elements.slice(0, 4).map((e) => e.path)).toEqual([
        'configuration',
        'configuration/system.webServer',
        'configuration/system.webServer/httpProtocol',
        base,
      ]);
      const entries = elements.slice(4);
      const expected = [...expectedHeaders(rules, reportOnly)];
      expect(entries.map((e) => e.path)).toEqual(expected.flatMap(() => [`${base}/remove`, `${base}/add`]));
      expected.forEach(([header, value], i) => {
        const remove = entries[2 * i]!.attributes;
        const add = entries[2 * i + 1]!.attributes;
        expect(remove).toEqual({ name: policyHeaders(rules, { reportOnly })[i]!.name });
        expect(add.name?.toLowerCase()).toBe(header);
        expect(add.value).toBe(value);
      });
    },
  );
});
