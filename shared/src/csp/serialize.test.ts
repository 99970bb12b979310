import { describe, expect, it } from 'vitest';
import type { CspRules } from './policy';
import {
  CLOUDFRONT_CSP_MAX,
  EXPORT_FORMATS,
  escapeApache,
  escapeNginx,
  exportApache,
  exportIis,
  exportMeta,
  exportNginx,
  exportPlain,
  exportPolicy,
  headerName,
  lengthWarnings,
  NGINX_PROXY_BUFFER,
  policyHeaders,
  renderPolicy,
  serializePolicy,
} from './serialize';

const RULES: CspRules = {
  'frame-ancestors': ["'self'"],
  'script-src': ["'self'", 'https://cdn.example'],
  'upgrade-insecure-requests': [],
  'default-src': ["'none'"],
  'img-src': ['https://img.example/a%20b/', 'data:'],
  'report-uri': ['https://csp.example/r?domain=x'],
};
const VALUE =
  "default-src 'none'; script-src 'self' https://cdn.example; img-src https://img.example/a%20b/ data:; frame-ancestors 'self'; upgrade-insecure-requests; report-uri https://csp.example/r?domain=x";

describe('header value', () => {
  it('directives in table order, sources as given and deduplicated, valueless directives bare', () => {
    expect(serializePolicy(RULES)).toBe(VALUE);
    expect(serializePolicy({ 'img-src': ['data:', 'data:', "'self'"] })).toBe("img-src data: 'self'");
    expect(serializePolicy({ 'x-custom': ['a'], 'default-src': ["'self'"] })).toBe(
      "default-src 'self'; x-custom a",
    );
  });

  it('drops sources and directive names that would break out of the header, and says so', () => {
    const { value, warnings } = renderPolicy({
      'img-src': [
        'https://ok.example',
        "https://a.example; script-src 'unsafe-inline'",
        'a,b',
        'x"y',
        'a\\b',
        'tab\there',
        'é',
      ],
      'bad name;': ['x'],
    });
    expect(value).toBe('img-src https://ok.example');
    expect(warnings).toHaveLength(7);
  });

  it('names the header for enforcing and report-only mode', () => {
    expect(headerName(false)).toBe('Content-Security-Policy');
    expect(headerName(true)).toBe('Content-Security-Policy-Report-Only');
  });

  it('adds report-to and a Reporting-Endpoints header when a reporting endpoint is configured', () => {
    const headers = policyHeaders(RULES, {
      reportOnly: true,
      reportTo: { url: 'https://csp.example/reports' },
    });
    expect(headers).toEqual([
      { name: 'Content-Security-Policy-Report-Only', value: `${VALUE}; report-to csp-endpoint` },
      { name: 'Reporting-Endpoints', value: 'csp-endpoint="https://csp.example/reports"' },
    ]);
    expect(() => policyHeaders(RULES, { reportTo: { url: 'javascript:alert(1)' } })).toThrow();
    expect(() => policyHeaders(RULES, { reportTo: { group: 'a b', url: 'https://x.example' } })).toThrow();
  });
});

describe('server configuration exports', () => {
  it('Apache: Header always set, quotes escaped, % doubled (mod_headers format specifiers)', () => {
    expect(escapeApache('a "b" 100%')).toBe('a \\"b\\" 100%%');
    const out = exportApache(RULES, { reportTo: { url: 'https://csp.example/reports' } });
    expect(out.filename).toBe('.htaccess');
    expect(out.content).toBe(
      [
        '# Content Security Policy (CSP Generator). Requires mod_headers.',
        '<IfModule mod_headers.c>',
        `  Header always set Content-Security-Policy "${VALUE.replace('%20', '%%20')}; report-to csp-endpoint"`,
        '  Header always set Reporting-Endpoints "csp-endpoint=\\"https://csp.example/reports\\""',
        '</IfModule>',
        '',
      ].join('\n'),
    );
    expect(out.warnings).toEqual([]);
  });

  it('nginx: add_header … always; quotes and backslashes escaped; a $ in a source is %24 for every target', () => {
    expect(escapeNginx('a "b" \\ $x')).toBe('a \\"b\\" \\\\ %24x');
    const rules = { 'img-src': ['https://a.example/$v/'] };
    // renderPolicy writes it: every server sends the same bytes, and CSP matches %24 as $.
    expect(serializePolicy(rules)).toBe('img-src https://a.example/%24v/');
    const out = exportNginx(rules, { reportTo: { url: 'https://r.example/' } });
    expect(out.filename).toBe('nginx.conf');
    expect(out.content).toContain(
      'add_header Content-Security-Policy "img-src https://a.example/%24v/; report-to csp-endpoint" always;',
    );
    expect(out.content).toContain(
      'add_header Reporting-Endpoints "csp-endpoint=\\"https://r.example/\\"" always;',
    );
    expect(out.warnings).toEqual([]);
    // The report URL in Reporting-Endpoints too, whether derived from report-uri or given as an option.
    const reporting = { 'report-uri': ['https://r.example/$x?a=$b'], 'report-to': ['g'] };
    for (const format of ['apache', 'nginx', 'iis', 'plain'] as const) {
      expect(exportPolicy(format, reporting).content, format).not.toContain('$');
    }
    expect(policyHeaders(reporting)[1]).toEqual({
      name: 'Reporting-Endpoints',
      value: 'g="https://r.example/%24x?a=%24b"',
    });
    expect(policyHeaders({}, { reportTo: { url: 'https://r.example/$y' } })[1]?.value).toBe(
      'csp-endpoint="https://r.example/%24y"',
    );
  });

  it("nginx with perRequestNonce: 'nonce-$request_id', explained, and no static-nonce warning", () => {
    const rules = {
      'script-src': ["'self'", `'nonce-${'a'.repeat(64)}'`],
      'style-src': [`'nonce-${'a'.repeat(64)}'`],
    };
    const fixed = exportNginx(rules);
    expect(fixed.content).toContain(`'nonce-${'a'.repeat(64)}'`);
    expect(fixed.warnings.some((w) => w.includes('same for every response'))).toBe(true);
    const fresh = exportNginx(rules, { perRequestNonce: true });
    expect(fresh.content).toContain(
      `add_header Content-Security-Policy "script-src 'self' 'nonce-$request_id'; style-src 'nonce-$request_id'" always;`,
    );
    expect(fresh.content).toContain('proxy_set_header X-CSP-Nonce $request_id;');
    expect(fresh.content).not.toContain('a'.repeat(64));
    expect(fresh.warnings).toEqual([]);
    // Without a nonce in the policy the option changes nothing.
    expect(exportNginx({ 'img-src': ["'self'"] }, { perRequestNonce: true }).content).toBe(
      exportNginx({ 'img-src': ["'self'"] }).content,
    );
  });

  it('IIS: web.config customHeaders with XML attribute escaping', () => {
    const out = exportIis({ 'img-src': ['https://a.example/?a=1&b=<2>'] }, { reportOnly: true });
    expect(out.filename).toBe('web.config');
    expect(out.content).toContain('<remove name="Content-Security-Policy-Report-Only" />');
    expect(out.content).toContain(
      '<add name="Content-Security-Policy-Report-Only" value="img-src https://a.example/?a=1&amp;b=&lt;2&gt;" />',
    );
    expect(out.content.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const withEndpoint = exportIis({}, { reportTo: { url: 'https://r.example/' } });
    expect(withEndpoint.content).toContain('value="csp-endpoint=&quot;https://r.example/&quot;"');
  });

  it('meta: leaves out what <meta> ignores and says so; escapes for HTML', () => {
    const out = exportMeta({ ...RULES, sandbox: ['allow-scripts'], 'report-to': ['g'] });
    expect(out.filename).toBe('csp-config.txt');
    expect(out.content).toBe(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self' https://cdn.example; img-src https://img.example/a%20b/ data:; upgrade-insecure-requests">\n`,
    );
    for (const d of ['frame-ancestors', 'report-uri', 'report-to', 'sandbox']) {
      expect(
        out.warnings.some((w) => w.startsWith(d)),
        d,
      ).toBe(true);
    }
    expect(exportMeta({ 'img-src': ['https://a.example/?a&b'] }).content).toContain('a&amp;b');
    expect(exportMeta({}, { reportOnly: true }).warnings.some((w) => w.includes('ignore'))).toBe(true);
  });

  it('plain: the header in csp-policy.txt, named, so enforced and report-only stay apart', () => {
    expect(exportPlain(RULES)).toEqual({
      filename: 'csp-policy.txt',
      content: `Content-Security-Policy: ${VALUE}\n`,
      warnings: [],
      headers: [{ name: 'Content-Security-Policy', value: VALUE }],
    });
    expect(exportPlain(RULES, { reportOnly: true }).content).toBe(
      `Content-Security-Policy-Report-Only: ${VALUE}\n`,
    );
  });

  it('a generated policy that reports (report-uri + report-to) brings its Reporting-Endpoints header to every export', () => {
    const uri = 'https://csp.example/api/uri-report?domain=0b6f5a1e-6f0e-4b8a-9a55-3c1f3c9c2d11';
    const rules = { 'default-src': ["'self'"], 'report-uri': [uri], 'report-to': ['csp-endpoint'] };
    const endpoint = `csp-endpoint="${uri}"`;
    expect(policyHeaders(rules)).toEqual([
      {
        name: 'Content-Security-Policy',
        value: `default-src 'self'; report-uri ${uri}; report-to csp-endpoint`,
      },
      { name: 'Reporting-Endpoints', value: endpoint },
    ]);
    expect(exportApache(rules).content).toContain(
      `Header always set Reporting-Endpoints "${endpoint.replace(/"/g, '\\"')}"`,
    );
    expect(exportNginx(rules).content).toContain(
      `add_header Reporting-Endpoints "${endpoint.replace(/"/g, '\\"')}" always;`,
    );
    expect(exportIis(rules).content).toContain(
      '<add name="Reporting-Endpoints" value="csp-endpoint=&quot;https://csp.example/api/uri-report?domain=',
    );
    const plain = exportPlain(rules);
    expect(plain.content).toBe(
      `Content-Security-Policy: default-src 'self'; report-uri ${uri}; report-to csp-endpoint\n\nReporting-Endpoints: ${endpoint}\n`,
    );
    for (const format of ['apache', 'nginx', 'iis', 'plain'] as const) {
      expect(exportPolicy(format, rules).warnings).toEqual([]);
    }
  });

  it('exportPolicy dispatches every format to its spec file name', () => {
    const names = EXPORT_FORMATS.map((f) => exportPolicy(f, RULES).filename);
    expect(names).toEqual(['.htaccess', 'nginx.conf', 'web.config', 'csp-config.txt', 'csp-policy.txt']);
  });

  it('warns that a nonce in server configuration is static', () => {
    const out = exportApache({ 'script-src': ["'nonce-abcdefghijklmnop'"] });
    expect(out.warnings.some((w) => w.includes('nonce'))).toBe(true);
  });

  it('warns about report-to without an endpoint, and upgrade-insecure-requests in report-only', () => {
    expect(exportNginx({ 'report-to': ['g'] }).warnings.some((w) => w.includes('Reporting-Endpoints'))).toBe(
      true,
    );
    const ro = exportNginx({ 'upgrade-insecure-requests': [] }, { reportOnly: true });
    expect(ro.warnings.some((w) => w.includes('upgrade-insecure-requests'))).toBe(true);
  });
});

describe('length warnings', () => {
  /** A policy whose header value is exactly n characters. */
  const policyOfLength = (n: number): CspRules => {
    const prefix = 'img-src ';
    return { 'img-src': [`https://${'a'.repeat(n - prefix.length - 8)}`] };
  };

  it('nothing up to the CloudFront cap', () => {
    const rules = policyOfLength(CLOUDFRONT_CSP_MAX);
    expect(serializePolicy(rules)).toHaveLength(1783);
    expect(exportApache(rules).warnings).toEqual([]);
  });

  it('each export names only the limits of where it goes', () => {
    const cloudfrontOnly = policyOfLength(CLOUDFRONT_CSP_MAX + 1);
    // The plain policy is what one pastes into a CloudFront response-headers policy.
    expect(exportPlain(cloudfrontOnly).warnings).toEqual([expect.stringContaining('1783')]);
    for (const format of ['apache', 'nginx', 'iis'] as const) {
      expect(exportPolicy(format, cloudfrontOnly).warnings, format).toEqual([]);
    }
    const long = policyOfLength(NGINX_PROXY_BUFFER + 1);
    // Apache and IIS may sit behind an nginx proxy; nginx adding the header itself has no such limit.
    expect(exportApache(long).warnings).toEqual([expect.stringContaining('502')]);
    expect(exportIis(long).warnings).toEqual([expect.stringContaining('502')]);
    expect(exportNginx(long).warnings).toEqual([]);
    expect(exportPlain(long).warnings).toHaveLength(2);
    expect(lengthWarnings('x'.repeat(NGINX_PROXY_BUFFER))).toEqual([expect.stringContaining('1783')]);
    expect(exportMeta(long).warnings.some((w) => w.includes('CloudFront') || w.includes('502'))).toBe(false);
  });
});

describe('rules keyed by names every object inherits', () => {
  // As JSON.parse gives them (a stored configuration): `__proto__` is an own key there.
  const rules: CspRules = JSON.parse(
    `{"default-src": ["'self'"], "constructor": ["https://a.example"], "__proto__": ["https://b.example"], "prototype": ["g"], "toString": ["t"], "frame-ancestors": ["'none'"]}`,
  );

  it('renders each as written or drops it with a warning, never reading an inherited value', () => {
    const { value, warnings } = renderPolicy(rules);
    expect(value).toBe(
      "default-src 'self'; frame-ancestors 'none'; constructor https://a.example; prototype g; tostring t",
    );
    expect(warnings).toEqual(['Dropped directive "__proto__": not a valid directive name.']);
    expect(renderPolicy({}).value).toBe('');
  });

  it('every export format takes them; the meta export keeps __proto__ as a key', () => {
    for (const format of EXPORT_FORMATS) {
      expect(exportPolicy(format, rules).content, format).toContain('constructor https://a.example');
    }
    const meta = exportMeta(rules);
    expect(meta.content).toContain('constructor https://a.example');
    expect(meta.warnings).toContain('Dropped directive "__proto__": not a valid directive name.');
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
