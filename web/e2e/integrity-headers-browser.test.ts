// The headers a configuration's integrity options add, applied by real Chromium: a loopback site sends the
// exact headers of the composed export, and Chromium refuses a script without integrity under
// Integrity-Policy, blocks innerHTML under the Trusted Types policy and lets the named policy through;
// report-only, it runs everything and reports the integrity violation and the Trusted Types sink. So the
// header values we write are ones Chromium parses and applies, in both modes.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '@csp/functions/src/testing/close-server';
import { composePolicy, exportComposed } from '@csp/shared/configurations/compose';
import { configurationBodySchema } from '@csp/shared/schemas/configuration';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ signedIn: false });

/** Runs first (with integrity): records what the page's policies report. */
const OBSERVE = `window.seen = { violations: [], integrity: [] };
document.addEventListener('securitypolicyviolation', (e) => window.seen.violations.push(e.effectiveDirective + ' ' + e.disposition));
new ReportingObserver((reports) => { for (const r of reports) window.seen.integrity.push(r.body.blockedURL); },
  { types: ['integrity-violation'], buffered: true }).observe();`;
const NO_SRI = 'window.noSri = true;';
const APP = `window.sink = 'blocked';
try { document.body.innerHTML = '<b>raw</b>'; window.sink = 'ran'; } catch (e) { window.sink = e.name; }
const app = trustedTypes.createPolicy('app', { createHTML: (s) => s });
document.body.innerHTML = app.createHTML('<i id="through-policy">ok</i>');
try { trustedTypes.createPolicy('other', {}); window.other = 'created'; } catch (e) { window.other = e.name; }`;

const sri = (body: string) => `sha384-${createHash('sha384').update(body).digest('base64')}`;
const PAGE = `<!doctype html><html><head><title>Shop</title>
<script src="/observe.js" integrity="${sri(OBSERVE)}" crossorigin="anonymous"></script>
<script src="/no-sri.js" crossorigin="anonymous"></script>
</head><body><p>shop</p>
<script src="/app.js" integrity="${sri(APP)}" crossorigin="anonymous"></script>
</body></html>`;

let site: Server;
let siteUrl: string;
let headers: Array<{ name: string; value: string }> = [];

function composedHeaders(metadata: Record<string, unknown>) {
  const config = configurationBodySchema.parse({
    name: 'x',
    cspRules: { 'default-src': ["'self'"], 'script-src': ["'self'"] },
    metadata: { trustedTypesPolicies: ['app'], ...metadata },
  });
  return exportComposed('plain', composePolicy(config, `${siteUrl}/report`)).headers;
}

beforeAll(async () => {
  site = createServer((req, res) => {
    const scripts: Record<string, string> = { '/observe.js': OBSERVE, '/no-sri.js': NO_SRI, '/app.js': APP };
    const script = scripts[req.url ?? ''];
    if (script !== undefined) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
      return;
    }
    if (req.url === '/report') {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      ...Object.fromEntries(headers.map((h) => [h.name, h.value])),
    });
    res.end(PAGE);
  });
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeServer(site);
});

async function load(): Promise<Page> {
  const page = await t.browser.newPage();
  await page.goto(`${siteUrl}/`, { waitUntil: 'networkidle0' });
  await page.waitForFunction(() => (window as unknown as { other?: string }).other !== undefined, {
    timeout: 15_000,
  });
  return page;
}

const state = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return {
      noSri: w.noSri === true,
      sink: w.sink,
      other: w.other,
      throughPolicy: document.getElementById('through-policy')?.textContent ?? null,
      seen: w.seen as { violations: string[]; integrity: string[] },
    };
  });

describe('Chromium applies the integrity headers a configuration exports', () => {
  it('enforced: the script without integrity is refused, innerHTML is blocked, the named policy works', async () => {
    headers = composedHeaders({ integrityPolicy: 'enforce', reportSha256: true, trustedTypes: 'enforce' });
    expect(headers.map((h) => h.name)).toEqual([
      'Content-Security-Policy',
      'Reporting-Endpoints',
      'Integrity-Policy',
    ]);
    const page = await load();
    const s = await state(page);
    expect(s.noSri).toBe(false);
    expect(s.sink).toBe('TypeError');
    expect(s.throughPolicy).toBe('ok');
    // 'other' is not among the trusted-types names.
    expect(s.other).toBe('TypeError');
    await page.close();
  });

  it('report-only beside an enforced policy: everything runs, the integrity violation and the sink are reported', async () => {
    headers = composedHeaders({
      integrityPolicy: 'report-only',
      reportSha256: true,
      trustedTypes: 'report-only',
    });
    expect(headers.map((h) => h.name)).toEqual([
      'Content-Security-Policy',
      'Reporting-Endpoints',
      'Integrity-Policy-Report-Only',
      'Content-Security-Policy-Report-Only',
    ]);
    const page = await load();
    await page.waitForFunction(
      () => {
        const seen = (window as unknown as { seen: { violations: string[]; integrity: string[] } }).seen;
        return seen.integrity.length > 0 && seen.violations.length > 0;
      },
      { timeout: 15_000 },
    );
    const s = await state(page);
    expect(s.noSri).toBe(true);
    expect(s.sink).toBe('ran');
    expect(s.other).toBe('created');
    // Once, or twice (the buffered copy and the live one): only the script without integrity.
    expect([...new Set(s.seen.integrity)]).toEqual([`${siteUrl}/no-sri.js`]);
    expect(s.seen.violations).toContain('require-trusted-types-for report');
    await page.close();
  });
});
