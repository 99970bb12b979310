// The report loop in a real browser: a fixture site on loopback serves pages with a policy generated for
// its domain (report-uri and report-to pointing at the running product); Chromium loads them, blocks what
// the policy does not allow and sends reports — application/csp-report for report-uri alone, the Reporting
// API's reports for report-to — which the owner API lists and the domain screen's reports panel shows.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchPut } from '@csp/functions/src/store/batch';
import { reportStatsKey } from '@csp/functions/src/store/keys';
import { closeServer } from '@csp/functions/src/testing/close-server';
import { floodCounterItems } from '@csp/functions/src/testing/reports';
import { generatePolicy } from '@csp/shared/csp/generate';
import { policyHeaders, REPORTING_GROUP } from '@csp/shared/csp/serialize';
import { hourOf } from '@csp/shared/reports/group';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickText, confirmDialog } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
let site: Server;
let siteUrl: string;
let domain: { id: string; uuid: string };
let headers: { name: string; value: string }[] = [];
let legacyOnly: { name: string; value: string }[] = [];

const PAGE = `<!doctype html><html><head><title>Shop</title><script src="/app.js"></script></head>
<body><h1>Shop</h1><img src="http://localhost:PORT/tracker.png" alt="">
<script>document.title = 'injected?';</script></body></html>`;

beforeAll(async () => {
  site = createServer((req, res) => {
    const port = (site.address() as AddressInfo).port;
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end('window.app = 1;');
      return;
    }
    if (req.url === '/tracker.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end();
      return;
    }
    const policy = req.url === '/legacy' ? legacyOnly : headers;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      ...Object.fromEntries(policy.map((h) => [h.name, h.value])),
    });
    res.end(PAGE.replace('PORT', String(port)));
  });
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  domain = await (await t.client.post('/api/domains', { name: 'Shop', url: siteUrl })).json();

  // The policy a crawl of the page would give: its own script, nothing else; reporting to the product.
  const reportUri = `${t.server.url}/api/uri-report?domain=${domain.uuid}`;
  const artifact = {
    origin: siteUrl,
    errors: [],
    pages: [
      {
        url: `${siteUrl}/`,
        finalUrl: `${siteUrl}/`,
        status: 200,
        observations: [
          {
            type: 'url' as const,
            directive: 'script-src-elem' as const,
            url: `${siteUrl}/app.js`,
            page: `${siteUrl}/`,
          },
        ],
      },
    ],
  };
  const withReportTo = generatePolicy(artifact, {
    mode: 'allowlist',
    reportUri,
    reportTo: REPORTING_GROUP,
  }).rules;
  expect(withReportTo['report-uri']).toEqual([reportUri]);
  expect(withReportTo['report-to']).toEqual([REPORTING_GROUP]);
  headers = policyHeaders(withReportTo);
  expect(headers.map((h) => h.name)).toEqual(['Content-Security-Policy', 'Reporting-Endpoints']);
  const { 'report-to': _t, ...reportUriOnly } = withReportTo;
  legacyOnly = policyHeaders(reportUriOnly);
});

afterAll(async () => {
  await closeServer(site);
});

async function reportsUntil(count: number, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    await t.server.reportQueue.idle();
    const body = await (await t.client.get(`/api/domains/${domain.id}/uri-reports`)).json();
    if (body.total >= count || Date.now() > until) return body;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('violation reports from a real browser', () => {
  // A page of its own, unguarded: the site's policy blocks things on purpose.
  let page: Page;

  it('reach the product through report-uri (application/csp-report)', async () => {
    page = await t.browser.newPage();
    await page.goto(`${siteUrl}/legacy`, { waitUntil: 'networkidle0' });
    const body = await reportsUntil(2);
    expect(body.total).toBe(2);
    const blocked = body.reports.map((r: { blockedUri: string; violatedDirective: string }) => [
      r.violatedDirective,
      r.blockedUri,
    ]);
    expect(blocked).toEqual(
      expect.arrayContaining([
        ['img-src', expect.stringMatching(/^http:\/\/localhost:\d+\/tracker\.png$/)],
        ['script-src-elem', 'inline'],
      ]),
    );
    expect(body.reports[0].documentUri).toBe(`${siteUrl}/legacy`);
    expect(body.reports[0].originalPolicy).toContain('report-uri');
  });

  it('reach the product through report-to (Reporting API batches)', async () => {
    // Headless Chromium queues Reporting API reports but does not upload them (its delivery service runs
    // in full browsers only); the reports it queued, read over CDP, are posted as it would post them.
    const cdp = await page.createCDPSession();
    const queued: { type: string; initiatorUrl: string; body: Record<string, unknown>; timestamp: number }[] =
      [];
    cdp.on('Network.reportingApiReportAdded', (e: { report: (typeof queued)[number] }) =>
      queued.push(e.report),
    );
    await cdp.send('Network.enable');
    await cdp.send('Network.enableReportingApi', { enable: true });
    await page.goto(`${siteUrl}/`, { waitUntil: 'networkidle0' });
    for (let i = 0; i < 40 && queued.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(queued.map((r) => r.type)).toEqual(['csp-violation', 'csp-violation']);
    const userAgent = await t.browser.userAgent();
    const upload = await fetch(`${t.server.url}/api/uri-report?domain=${domain.uuid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/reports+json' },
      body: JSON.stringify(
        queued.map((r) => ({
          type: r.type,
          age: Math.max(0, Math.round(Date.now() - r.timestamp * 1000)),
          url: r.initiatorUrl,
          user_agent: userAgent,
          body: r.body,
        })),
      ),
    });
    expect(upload.status).toBe(204);
    const body = await reportsUntil(4);
    expect(body.total).toBe(4);
    const fromReportTo = body.reports.filter((r: { documentUri: string }) => r.documentUri === `${siteUrl}/`);
    expect(fromReportTo).toHaveLength(2);
    expect(body.counts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ directive: 'img-src', count: 2 }),
        expect.objectContaining({ source: 'inline', count: 2 }),
      ]),
    );
    const suggestions = await (await t.client.get(`/api/domains/${domain.id}/report-suggestions`)).json();
    // No crawl of this domain yet: the inline script cannot be told from an injection.
    expect(suggestions.analysisId).toBeNull();
    expect(suggestions.suggestions.find((s: { blocked: string }) => s.blocked === 'inline')).toMatchObject({
      class: 'suspicious-inline',
      acceptable: false,
    });
  });

  it('are shown in the reports panel of the domain screen', async () => {
    await page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="reports-panel"] [data-testid="report-row"]', {
      timeout: 15_000,
    });
    const rows = await page.$$('[data-testid="report-row"]');
    expect(rows.length).toBe(4);
    const text = await page.$eval('[data-testid="reports-panel"]', (el) => (el as HTMLElement).innerText);
    expect(text).toContain('tracker.png');
    expect(text).toContain('script-src-elem');
    // The inline script cannot be told from an injection without a crawl: flagged, with the chart and count.
    await page.waitForSelector('[data-testid="report-suggestion"][data-class="suspicious-inline"]');
    expect(await page.$('[data-testid="reports-chart"]')).not.toBeNull();
    expect(await page.$eval('[data-testid="report-count"]', (el) => el.textContent)).toMatch(/^4 reports/);

    await page.click('[data-testid="report-row"] button[aria-label="Delete report"]');
    await page.waitForFunction(() =>
      document.body.innerText.includes('Security report deleted successfully'),
    );
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="report-row"]').length === 3);
  });

  it('Clear All runs in the background: the panel shows its progress, then the empty state', async () => {
    // A flood's worth of groups: more than the table shows, and enough that clearing takes a while.
    const n = 8000;
    const hour = hourOf(new Date().toISOString());
    const _now = new Date().toISOString();
    const before = await (await t.client.get(`/api/domains/${domain.id}/uri-reports`)).json();
    const items = floodCounterItems(domain.id, n, (i) => `https://seed-${i}.flood.example`);
    items.push({ ...reportStatsKey(domain.id, hour), received: before.total + n, kept: before.stored });
    await batchPut(t.server.deps.db, items);

    const shots = join(tmpdir(), 'csp-report-screens');
    mkdirSync(shots, { recursive: true });
    const panel = '[data-testid="reports-panel"]';
    /** The screen with `selector` in the middle of it, as a visitor sees it. */
    const shot = async (selector: string, name: string) => {
      await page.$eval(selector, (el) => el.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: join(shots, `${name}.png`) });
    };
    // From a blank page: tearing down the screen the last test left (a domain screen open while the flood
    // was written) held headless Chromium's software GPU for up to 14 s on a busy machine, which no visitor's
    // browser does and which is not what this test measures.
    await page.goto('about:blank');
    await page.setViewport({ width: 1440, height: 900 });
    await page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    const other = await page.waitForSelector('[data-testid="report-other-groups"]', { timeout: 15_000 });
    const groups = before.groupTotal + n;
    expect(await other!.evaluate((el) => (el as HTMLElement).innerText)).toContain(
      `in ${(groups - REPORT_LIMITS.groupsShown).toLocaleString('en-US')} other groups`,
    );
    // A flood of distinct sources costs the owner's screen a button, not two hundred rows and cards: the first
    // rows and suggestions are listed, the rest a click away each.
    const rows = () => page.$$eval(`${panel} tbody tr`, (r) => r.length);
    const cards = () => page.$$eval(`${panel} [data-testid="report-suggestion"]`, (c) => c.length);
    expect(await rows()).toBe(REPORT_LIMITS.groupsListedFirst);
    expect(await cards()).toBe(REPORT_LIMITS.suggestionsListedFirst);
    expect(await page.$eval(panel, (el) => el.querySelectorAll('*').length)).toBeLessThan(800);
    expect(await page.$eval('[data-testid="report-groups-more"]', (b) => b.parentElement!.textContent)).toBe(
      `Show ${REPORT_LIMITS.groupsListedFirst} more${REPORT_LIMITS.groupsListedFirst} of ${REPORT_LIMITS.groupsShown} shown`,
    );
    await page.click('[data-testid="report-groups-more"]');
    await page.waitForFunction(
      (sel, n) => document.querySelectorAll(`${sel} tbody tr`).length === n,
      {},
      panel,
      2 * REPORT_LIMITS.groupsListedFirst,
    );
    await page.click('[data-testid="report-suggestions-more"]');
    await page.waitForFunction(
      (sel, n) => document.querySelectorAll(`${sel} [data-testid="report-suggestion"]`).length === n,
      {},
      panel,
      2 * REPORT_LIMITS.suggestionsListedFirst,
    );
    await shot('[data-testid="report-other-groups"]', 'reports-other-1440');
    // A mobile viewport reloads the page.
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await page.waitForSelector('[data-testid="report-other-groups"]', { timeout: 15_000 });
    await shot('[data-testid="report-other-groups"]', 'reports-other-390');
    await page.setViewport({ width: 1440, height: 900 });
    await page.waitForSelector('[data-testid="report-other-groups"]', { timeout: 15_000 });

    await clickText(page, 'button', 'Clear All');
    await confirmDialog(page, 'Clear All');
    const progress = await page.waitForSelector('[data-testid="report-clear-progress"]');
    expect(await progress!.evaluate((el) => (el as HTMLElement).innerText)).toMatch(
      /Clearing all security reports…[\s\S]*deleted so far/,
    );
    expect(await page.$eval('button::-p-text(Clear All)', (b) => (b as HTMLButtonElement).disabled)).toBe(
      true,
    );
    await shot('[data-testid="report-clear-progress"]', 'reports-clearing-1440');
    // Reloaded at phone width, the panel finds the clearing still running and shows it again.
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    await page.waitForSelector(panel);
    const stillRunning = await page
      .waitForSelector('[data-testid="report-clear-progress"]', { timeout: 5000 })
      .catch(() => null);
    if (stillRunning) {
      await shot('[data-testid="report-clear-progress"]', 'reports-clearing-390');
    }
    await page.setViewport({ width: 1440, height: 900 });

    // Done: the panel refreshes itself into its empty state.
    await page.waitForFunction(
      () =>
        document.body.innerText.includes('No violation reports in the last') &&
        !document.querySelector('[data-testid="report-clear-progress"]'),
      { timeout: 90_000 },
    );
    const after = await (await t.client.get(`/api/domains/${domain.id}/uri-reports`)).json();
    expect(after).toMatchObject({ total: 0, groupTotal: 0, counts: [] });
  }, 180_000);
});
