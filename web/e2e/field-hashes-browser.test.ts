// Field hashes from a real browser: a loopback fixture site serves a page under
// `script-src 'self' 'report-sha256'; report-to g` and one under `Integrity-Policy-Report-Only:
// blocked-destinations=(script), endpoints=(g)` whose script has no integrity. Chromium 147 emits a
// `csp-hash` report per script and an `integrity-violation` report; headless Chromium queues Reporting API
// reports without uploading them, so the test reads them over CDP (Network.reportingApiReportAdded) and
// posts them to the real report endpoint as Chromium would. The inventory is seeded through the store with
// the crawl's SHA-256 of each script: app.js with the bytes the site serves (match), lib.js with an older
// version's (the field's digest is one no crawl saw: an alert), vendor.js with a newer version's and the
// served one in its history (a visitor's cached copy from before the update: an earlier crawl saw it, no
// alert). The Scripts panel shows all three.
// With SHOTS_DIR set it saves the panel at 1440 and 390 px there.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { putScriptEntries } from '@csp/functions/src/store/script-inventory';
import { closeServer } from '@csp/functions/src/testing/close-server';
import type { FieldDigestList } from '@csp/shared/watch/field-digests';
import type { InventoryEntry } from '@csp/shared/watch/inventory';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickUncovered } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const APP_JS = 'window.app = 1;';
const LIB_JS = 'window.lib = 2;';
/** What the crawl read at lib.js before the site changed it (the field runs LIB_JS). */
const LIB_JS_CRAWLED = 'window.lib = 1;';
/** vendor.js as the visitors' cache still holds it (what the site serves here), and as the last crawl read it. */
const VENDOR_JS = 'window.vendor = 3;';
const VENDOR_JS_UPDATED = 'window.vendor = 4;';
const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;

let site: Server;
let siteUrl: string;
let reportUri: string;
let domain: { id: string; uuid: string };

beforeAll(async () => {
  site = createServer((req, res) => {
    const scripts: Record<string, string> = { '/app.js': APP_JS, '/lib.js': LIB_JS, '/vendor.js': VENDOR_JS };
    if (req.url && req.url in scripts) {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(scripts[req.url]);
      return;
    }
    const endpoints = { 'reporting-endpoints': `g="${reportUri}"` };
    if (req.url === '/integrity') {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'integrity-policy-report-only': 'blocked-destinations=(script), endpoints=(g)',
        ...endpoints,
      });
      res.end('<!doctype html><title>Cart</title><script src="/lib.js"></script><h1>Cart</h1>');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "script-src 'self' 'report-sha256'; report-to g",
      ...endpoints,
    });
    res.end(
      '<!doctype html><title>Shop</title><script src="/app.js"></script><script src="/lib.js"></script><script src="/vendor.js"></script><h1>Shop</h1>',
    );
  });
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  domain = await (await t.client.post('/api/domains', { name: 'Shop', url: siteUrl })).json();
  reportUri = `${t.server.url}/api/uri-report?domain=${domain.uuid}`;

  const at = '2026-11-24T09:00:00.000Z';
  const crawled = (path: string, body: string): InventoryEntry => ({
    key: `${siteUrl}${path}`,
    kind: 'external',
    url: `${siteUrl}${path}`,
    party: 'first',
    initiator: null,
    digest: `sha384-${createHash('sha384').update(body).digest('base64')}`,
    sha256: sha256(body),
    digests: [],
    pages: [`${siteUrl}/`],
    pageCount: 1,
    firstSeen: at,
    lastSeen: at,
    state: 'authorized',
    authorization: null,
    seenBy: 'crawl',
  });
  const vendor = crawled('/vendor.js', VENDOR_JS_UPDATED);
  // Two crawls: the first read the version visitors still have, the last the update.
  vendor.digests = [
    {
      digest: 'sha384-vendor-3',
      sha256: sha256(VENDOR_JS),
      firstSeen: '2026-11-10T09:00:00.000Z',
      lastSeen: '2026-11-10T09:00:00.000Z',
    },
    { digest: vendor.digest!, sha256: vendor.sha256!, firstSeen: at, lastSeen: at },
  ];
  await putScriptEntries(t.server.deps.db, domain.id, [
    { entry: crawled('/app.js', APP_JS), rev: null },
    { entry: crawled('/lib.js', LIB_JS_CRAWLED), rev: null },
    { entry: vendor, rev: null },
  ]);
});

afterAll(async () => {
  await closeServer(site);
});

interface QueuedReport {
  type: string;
  initiatorUrl: string;
  body: Record<string, unknown>;
  timestamp: number;
}

/** Loads `path` of the fixture site and returns the Reporting API reports Chromium queued for it. */
async function reportsOf(path: string, expected: number): Promise<QueuedReport[]> {
  const page = await t.browser.newPage();
  try {
    const cdp = await page.createCDPSession();
    const queued: QueuedReport[] = [];
    cdp.on('Network.reportingApiReportAdded', (e: { report: QueuedReport }) => queued.push(e.report));
    await cdp.send('Network.enable');
    await cdp.send('Network.enableReportingApi', { enable: true });
    await page.goto(`${siteUrl}${path}`, { waitUntil: 'networkidle0' });
    for (let i = 0; i < 50 && queued.length < expected; i++) await new Promise((r) => setTimeout(r, 100));
    return queued;
  } finally {
    await page.close();
  }
}

/** Posts queued reports as Chromium uploads them (application/reports+json). */
async function upload(reports: QueuedReport[]) {
  const userAgent = await t.browser.userAgent();
  return fetch(reportUri, {
    method: 'POST',
    headers: { 'content-type': 'application/reports+json' },
    body: JSON.stringify(
      reports.map((r) => ({
        type: r.type,
        age: Math.max(0, Math.round(Date.now() - r.timestamp * 1000)),
        url: r.initiatorUrl,
        user_agent: userAgent,
        body: r.body,
      })),
    ),
  });
}

async function fieldHashes(): Promise<FieldDigestList> {
  await t.server.reportQueue.idle();
  return (await t.client.get(`/api/domains/${domain.id}/scripts/field-hashes`)).json();
}

async function screenshots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewport({ width, height: 900 });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewport({ width, height });
    const card = await page
      .waitForSelector('[data-testid="achievement-continue"]', { timeout: 1500 })
      .catch(() => null);
    if (card) {
      await clickUncovered(page, card);
      await page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'));
    }
    await new Promise((r) => setTimeout(r, 300));
    const panel = await page.$('[data-testid="scripts-panel"]');
    await panel!.screenshot({ path: join(dir, `${name}-${width}.png`) });
  }
  await page.setViewport({ width: 1280, height: 900 });
}

describe('field hashes from a real browser', () => {
  it("csp-hash reports of 'report-sha256' arrive, are counted and reconciled, and content no crawl saw is an alert", async () => {
    const queued = await reportsOf('/', 3);
    expect(queued.map((r) => r.type)).toEqual(['csp-hash', 'csp-hash', 'csp-hash']);
    // The body as Chromium writes it (the CSP3 draft's shape).
    expect(queued.find((r) => String(r.body.subresourceURL).endsWith('/app.js'))?.body).toEqual({
      destination: 'script',
      documentURL: `${siteUrl}/`,
      hash: sha256(APP_JS),
      subresourceURL: `${siteUrl}/app.js`,
      type: 'subresource',
    });
    expect((await upload(queued)).status).toBe(204);

    const list = await fieldHashes();
    const of = (path: string) => list.scripts.find((s) => s.key === `${siteUrl}${path}`);
    expect(of('/app.js')?.digests).toEqual([
      expect.objectContaining({ digest: sha256(APP_JS), count: 1, verdict: 'match' }),
    ]);
    expect(of('/lib.js')).toMatchObject({
      crawlSha256: sha256(LIB_JS_CRAWLED),
      digests: [{ digest: sha256(LIB_JS), count: 1, verdict: 'unknown' }],
    });
    expect(of('/vendor.js')).toMatchObject({
      crawlSha256: sha256(VENDOR_JS_UPDATED),
      digests: [{ digest: sha256(VENDOR_JS), count: 1, verdict: 'earlier' }],
    });

    const alerts = (await (await t.client.get(`/api/domains/${domain.id}/alerts`)).json()) as {
      alerts: { kind: string; summary: string; count: number; path: string }[];
    };
    const raised = alerts.alerts.filter((a) => a.kind === 'field-digest');
    expect(raised).toHaveLength(1);
    expect(raised[0]!.summary).toContain(`${siteUrl}/lib.js ran as ${sha256(LIB_JS)}`);
    expect(raised[0]!.path).toBe(`/domains/${domain.id}#scripts`);
  });

  it('integrity-violation reports of Integrity-Policy-Report-Only arrive and are counted per script', async () => {
    const queued = await reportsOf('/integrity', 1);
    expect(queued.length).toBeGreaterThanOrEqual(1);
    expect(new Set(queued.map((r) => r.type))).toEqual(new Set(['integrity-violation']));
    expect(queued[0]!.body).toEqual({
      blockedURL: `${siteUrl}/lib.js`,
      destination: 'script',
      documentURL: `${siteUrl}/integrity`,
      reportOnly: true,
    });
    expect((await upload(queued)).status).toBe(204);
    const lib = (await fieldHashes()).scripts.find((s) => s.key === `${siteUrl}/lib.js`);
    // Chromium queues the same report twice for one load (the preload scanner's fetch and the parser's):
    // one visitor's load, counted once (the repeat filter), reported only: the script ran.
    expect(lib?.integrity).toMatchObject({ count: 1, reportOnly: 1 });
  });

  it('the Scripts panel shows the field digests against the crawl and the loads without integrity', async () => {
    await t.page.setViewport({ width: 1280, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="field-digests"]', { timeout: 15_000 });
    const rowText = (path: string) =>
      t.page.$$eval(
        '[data-testid="script-row"]',
        (rows, url) => rows.find((r) => r.textContent?.includes(url as string))?.textContent ?? '',
        `${siteUrl}${path}`,
      );
    await t.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="field-digests"]').length === 3,
    );
    expect(await rowText('/lib.js')).toContain('Field: 1 digest, 1 unknown');
    expect(await rowText('/lib.js')).toContain("1 visitor's browser reported it without integrity");
    expect(await rowText('/app.js')).toContain('Field: 1 digest');
    expect(await rowText('/app.js')).not.toContain('unknown');
    expect(await rowText('/app.js')).toContain('Matches the crawl');
    expect(await rowText('/vendor.js')).toContain('Field: 1 digest');
    expect(await rowText('/vendor.js')).not.toContain('unknown');
    expect(await rowText('/vendor.js')).not.toContain('Content no crawl saw');

    const unknownRow = await t.page.$('[data-testid="field-digests"][data-unknown="1"] button');
    await unknownRow!.click();
    await t.page.waitForSelector('[data-verdict="unknown"]');
    const listed = await t.page.$eval('[data-verdict="unknown"]', (el) => el.textContent ?? '');
    expect(listed).toContain('A digest no crawl saw');
    expect(listed).toContain('1 report');
    const vendorRow = await t.page.$$eval('[data-testid="field-digests"]', (els) =>
      els.findIndex((el) => el.closest('[data-testid="script-row"]')?.textContent?.includes('/vendor.js')),
    );
    await (await t.page.$$('[data-testid="field-digests"] button'))[vendorRow]!.click();
    await t.page.waitForSelector('[data-verdict="earlier"]');
    expect(await t.page.$eval('[data-verdict="earlier"]', (el) => el.textContent ?? '')).toContain(
      'An earlier crawl saw it',
    );
    await screenshots(t.page, 'field-digests');
  });
});
