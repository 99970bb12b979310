// The whole product in one browser journey, nothing seeded: add a domain in the UI, start an analysis,
// the real crawler (Chromium, SSRF proxy, queue handler) crawls a loopback fixture site, and the analysis
// screen shows the generated policy and its self-verification.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSites, startFixtureSites } from '@csp/functions/src/crawler/fixtures/sites';
import { loopbackCrawlHandler } from '@csp/functions/src/testing/crawl-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clickText,
  dismissAchievementOverlay,
  fill,
  visibleText,
  waitForPath,
  waitForToast,
} from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const blobDir = mkdtempSync(join(tmpdir(), 'csp-e2e-blobs-'));
const t = setupSignedInBrowser({ crawlHandler: (deps) => loopbackCrawlHandler(deps, blobDir) });
let sites: FixtureSites;

beforeAll(async () => {
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
});

afterAll(async () => {
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

describe('from a new domain to a verified policy', () => {
  it('adds the domain, crawls it for real and shows the policy verified on every page', async () => {
    await t.page.goto(`${t.server.url}/domains/new`, { waitUntil: 'load' });
    await t.page.waitForSelector('#domain-name');
    await fill(t.page, '#domain-name', 'Fixture shop');
    await fill(t.page, '#domain-url', `${sites.origins.main}/`);
    await clickText(t.page, 'button', 'Create Domain');
    await waitForToast(t.page, 'Domain Created');
    await waitForPath(t.page, '/dashboard');
    // The first domain unlocked 'First Domain': the overlay comes first.
    await dismissAchievementOverlay(t.page);

    await clickText(t.page, '*', 'Fixture shop');
    await t.page.waitForFunction(() => location.pathname.startsWith('/domains/'));
    await clickText(t.page, 'button', 'Quick Start Analysis');
    await waitForToast(t.page, 'Analysis Started');

    const results = await t.page.waitForSelector('xpath/.//a[normalize-space()="View Results"]', {
      timeout: 90_000,
    });
    await results!.click();
    await t.page.waitForFunction(() => location.pathname.startsWith('/analysis/'));
    await t.page.waitForSelector(
      'xpath/.//*[contains(normalize-space(), "Verified on 2 pages: 0 violations")]',
    );
    const text = await visibleText(t.page);
    expect(text).toContain('Completed');
    // The policy names the CDN origin exactly, hashes the handler, and allows nothing broader. (Read from
    // the header itself: the findings' texts name other keywords, 'unsafe-inline' among them.)
    const header = await t.page.$eval('[data-testid="policy-header"]', (el) => (el as HTMLElement).innerText);
    expect(header).toContain(sites.origins.cdn);
    expect(header).toContain("'unsafe-hashes'");
    expect(header).not.toContain("'unsafe-inline'");
    t.guard.assertClean();
  });
});
