// The whole product in one browser journey, nothing seeded: add a domain in the UI, start an analysis,
// the real crawler (Chromium, SSRF proxy, queue handler) crawls a loopback fixture site, and the analysis
// screen shows the generated policy and its self-verification.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSites, startFixtureSites } from '@csp/functions/src/crawler/fixtures/sites';
import { registeredClient, startTestServer } from '@csp/functions/src/testing/api-server';
import { loopbackCrawlHandler } from '@csp/functions/src/testing/crawl-handler';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser';
import {
  buildWeb,
  clickText,
  dismissAchievementOverlay,
  fill,
  guardPage,
  type PageGuard,
  visibleText,
  waitForPath,
  waitForToast,
} from './harness';

let server: Awaited<ReturnType<typeof startTestServer>>;
let sites: FixtureSites;
let browser: Browser;
let page: Page;
let guard: PageGuard;
const blobDir = mkdtempSync(join(tmpdir(), 'csp-e2e-blobs-'));

beforeAll(async () => {
  const webDist = buildWeb();
  sites = await startFixtureSites({
    mainOnly: (o) => ({
      '/': {
        type: 'text/html',
        body: `<!doctype html><title>Shop</title><link rel="stylesheet" href="/shop.css"><script src="${o.cdn}/lib.js"></script><a href="/cart">Cart</a>`,
      },
      '/cart': {
        type: 'text/html',
        body: '<!doctype html><title>Cart</title><button onclick="this.disabled=true">Pay</button><a href="/">Home</a>',
      },
      '/shop.css': { type: 'text/css', body: 'body{font-family:sans-serif}' },
    }),
  });
  [server, browser] = await Promise.all([
    startTestServer({
      webDist,
      crawlHandler: (deps) => loopbackCrawlHandler(deps, blobDir),
    }),
    launchBrowser(),
  ]);
  page = await browser.newPage();
  guard = await guardPage(page);
  const { client } = await registeredClient(server.url, { firstName: 'Linus' });
  await browser.setCookie(
    ...[...client.cookies].map(([name, value]) => ({ name, value, domain: '127.0.0.1', path: '/' })),
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

describe('from a new domain to a verified policy', () => {
  it('adds the domain, crawls it for real and shows the policy verified on every page', async () => {
    await page.goto(`${server.url}/domains/new`, { waitUntil: 'load' });
    await page.waitForSelector('#domain-name');
    await fill(page, '#domain-name', 'Fixture shop');
    await fill(page, '#domain-url', `${sites.origins.main}/`);
    await clickText(page, 'button', 'Create Domain');
    await waitForToast(page, 'Domain Created');
    await waitForPath(page, '/dashboard');
    // The first domain unlocked 'First Domain': the overlay comes first.
    await dismissAchievementOverlay(page);

    await clickText(page, '*', 'Fixture shop');
    await page.waitForFunction(() => location.pathname.startsWith('/domains/'));
    await clickText(page, 'button', 'Quick Start Analysis');
    await waitForToast(page, 'Analysis Started');

    const results = await page.waitForSelector('xpath/.//a[normalize-space()="View Results"]', {
      timeout: 90_000,
    });
    await results!.click();
    await page.waitForFunction(() => location.pathname.startsWith('/analysis/'));
    await page.waitForSelector(
      'xpath/.//*[contains(normalize-space(), "Verified on 2 pages: 0 violations")]',
    );
    const text = await visibleText(page);
    expect(text).toContain('Completed');
    // The policy names the CDN origin exactly, hashes the handler, and allows nothing broader. (Read from
    // the header itself: the findings explain 'unsafe-hashes' by naming 'unsafe-inline'.)
    const header = await page.$eval('[data-testid="policy-header"]', (el) => (el as HTMLElement).innerText);
    expect(header).toContain(sites.origins.cdn);
    expect(header).toContain("'unsafe-hashes'");
    expect(header).not.toContain("'unsafe-inline'");
    guard.assertClean();
  });
});
