// 'Crawled pages' after a real crawl: a loopback fixture site crawled by the real crawler from a manual URL
// list holding a URL that answers a 404 page and one that answers a plain-text 404. The analysis lists every
// URL with its status (the two as HTTP 404), what each page loaded, the resources by directive, a search over
// them, and the coverage card counts the failed URLs instead of calling the crawl complete. Screenshots of
// the list at 1440 and 390 px go to /tmp/shots-crawled/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSites, startFixtureSites } from '@csp/functions/src/crawler/fixtures/sites';
import { loopbackCrawlHandler } from '@csp/functions/src/testing/crawl-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickText, fill, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const blobDir = mkdtempSync(join(tmpdir(), 'csp-e2e-blobs-'));
const shots = '/tmp/shots-crawled';
const t = setupSignedInBrowser({ crawlHandler: (deps) => loopbackCrawlHandler(deps, blobDir) });
let sites: FixtureSites;

beforeAll(async () => {
  sites = await startFixtureSites({
    mainOnly: (o) => ({
      '/': {
        type: 'text/html',
        body: `<!doctype html><title>Home</title><style>h1{color:teal}</style><h1>Home</h1><img src="${o.assets}/img/flag.png" alt=""><a href="/about">About</a>`,
      },
      '/about': {
        type: 'text/html',
        body: `<!doctype html><title>About</title><img src="${o.assets}/img/bg.png" alt=""><a href="/">Home</a>`,
      },
      // Only in the URL list: nothing links to it.
      '/pricing': {
        type: 'text/html',
        body: `<!doctype html><title>Pricing</title><img src="${o.assets}/img/icon.svg" alt="">`,
      },
      // A page that answers 404; any other unknown path answers a plain-text 404.
      '/gone': {
        status: 404,
        type: 'text/html',
        body: '<!doctype html><title>Not found</title><h1>Gone</h1>',
      },
    }),
  });
});

afterAll(async () => {
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

const text = (selector: string) =>
  t.page.$eval(selector, (el) => (el as HTMLElement).innerText.replace(/\s+/g, ' '));

/** The rows of the list as 'status url'. */
const rows = () =>
  t.page.$$eval('[data-testid="crawled-page"]', (lis) =>
    lis.map(
      (li) =>
        `${li.querySelector('[data-testid="crawled-page-status"]')?.textContent} ${li.querySelector('.font-mono')?.textContent}`,
    ),
  );

/** No element wider than the viewport makes the page scroll sideways. */
const scrollsSideways = () =>
  t.page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('crawled pages', () => {
  it('lists every URL of a real crawl with its status, a 404 as such, and the coverage card counts it', async () => {
    const main = sites.origins.main;
    const created = await t.client.post('/api/domains', { name: 'Listed site', url: `${main}/` });
    expect(created.status).toBe(201);
    const domain = (await created.json()) as { id: string };

    await t.page.setViewport({ width: 1440, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await clickText(t.page, 'button', 'Advanced Settings');
    const list = await t.page.waitForSelector('textarea[name="urlList"]');
    await list!.type(`${main}/pricing\n${main}/gone\n${main}/old-page`);
    await clickText(t.page, 'form//button', 'Start Analysis');
    await waitForToast(t.page, 'Analysis Started');

    const results = await t.page.waitForSelector('xpath/.//a[normalize-space()="View Results"]', {
      timeout: 120_000,
    });
    await results!.click();
    await t.page.waitForFunction(() => location.pathname.startsWith('/analysis/'));
    await t.page.waitForSelector('[data-testid="crawled-page"]', { timeout: 30_000 });

    // Every URL tried, the failed ones first, each with its status.
    const listed = await rows();
    expect(listed.slice(0, 2).sort()).toEqual([`HTTP 404 ${main}/gone`, `HTTP 404 ${main}/old-page`]);
    expect(listed.slice(2).sort()).toEqual([`200 ${main}/`, `200 ${main}/about`, `200 ${main}/pricing`]);
    expect(await text('[data-testid="crawled-pages-summary"]')).toBe('5 URLs tried · 2 failed · 4 resources');

    // The coverage card counts them and no longer says the crawl was complete.
    const coverage = await text('[data-testid="crawl-coverage"]');
    expect(coverage).toContain('2 of 5 URLs failed');
    expect(coverage).toContain('All 3 pages that answered were captured completely');
    expect(coverage).not.toMatch(/All \d+ pages captured completely/);

    // A page opens on what it loaded, by directive.
    await clickText(t.page, 'button//span', `${main}/pricing`);
    const pricing = await text('[data-testid="crawled-page"][data-status="200"]:has([aria-expanded="true"])');
    expect(pricing).toContain('img-src');
    expect(pricing).toContain(`${sites.origins.assets}/img/icon.svg`);

    // The search finds the page that loaded a resource, and the 404s by their status.
    await t.page.type('input[type="search"]', 'flag.png');
    await t.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="crawled-page"]').length === 1,
    );
    expect(await rows()).toEqual([`200 ${main}/`]);
    await fill(t.page, 'input[type="search"]', '404');
    await t.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="crawled-page"]').length === 2,
    );

    // The Resources tile opens the resources grouped by directive.
    await fill(t.page, 'input[type="search"]', '');
    const tile = await t.page.waitForSelector('a[href="#crawled-resources"]');
    expect(await tile!.evaluate((a) => a.textContent)).toBe('4');
    await tile!.click();
    await t.page.waitForSelector('[role="tab"][aria-selected="true"]::-p-text(Resources)');
    const groups = await t.page.$$eval('[data-testid="directive-groups"] > section', (s) =>
      s.map((g) => g.getAttribute('aria-label')),
    );
    expect(groups).toEqual(['img-src', 'style-src-elem']);

    mkdirSync(shots, { recursive: true });
    await t.page.screenshot({ path: join(shots, 'crawled-resources-1440.png'), fullPage: true });
    await clickText(t.page, 'button', 'Pages 5');
    await clickText(t.page, 'button//span', `${main}/`);
    const card = await t.page.$('[data-testid="crawled-pages"]');
    await card!.screenshot({ path: join(shots, 'crawled-pages-1440.png') });

    // On a phone (the viewport change reloads the page, which opens on the resources again): the same list,
    // and nothing scrolls sideways at 390 or 360 px, in either view.
    await t.page.setViewport({
      width: 390,
      height: 844,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await clickText(t.page, 'button', 'Pages 5');
    await clickText(t.page, 'button//span', `${main}/gone`);
    const phoneCard = await t.page.waitForSelector('[data-testid="crawled-pages"]');
    await phoneCard!.screenshot({ path: join(shots, 'crawled-pages-390.png') });
    const phoneCoverage = await t.page.$('[data-testid="crawl-coverage"]');
    await phoneCoverage!.screenshot({ path: join(shots, 'coverage-390.png') });
    for (const width of [390, 360]) {
      await t.page.setViewport({ width, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      expect(await scrollsSideways()).toBe(false);
      await clickText(t.page, 'button', 'Resources 4');
      expect(await scrollsSideways()).toBe(false);
      await clickText(t.page, 'button', 'Pages 5');
    }
    t.guard.assertClean();
  }, 300_000);
});
