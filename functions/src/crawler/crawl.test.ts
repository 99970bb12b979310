// The crawl engine on small loopback sites: discovery (robots, sitemap index, .xml.gz, uploaded content,
// URL list, links), never the same page twice, maxPages, crawlDelay per host, the user agent, failing
// pages, and a crawl stopped by its deadline that continues from its JSON state.
import { gzipSync } from 'node:zlib';
import { stageBands, stagePercent, UNKNOWN_SITE_PAGES } from '@csp/shared/analyses/progress-bands';
import { afterEach, describe, expect, it } from 'vitest';
import { type CrawlProgress, runCrawl } from './crawl';
import type { Origins } from './fixtures/content';
import { type FixtureSites, type FixtureSitesOptions, startFixtureSites } from './fixtures/sites';
import { parseCrawlState } from './state';

const page = (...links: string[]) => ({
  body: `<!doctype html><title>t</title>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}`,
});
const urlset = (urls: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const deadline = () => Date.now() + 60_000;
/** These tests count the site's requests: no second loads for the stability check. */
const noRerender = { rerender: false } as const;

let sites: FixtureSites | undefined;
async function site(
  routes: (
    o: Origins,
  ) => FixtureSitesOptions['mainOnly'] extends ((o: Origins) => infer R) | undefined ? R : never,
  extra: Omit<FixtureSitesOptions, 'mainOnly'> = {},
) {
  sites = await startFixtureSites({ mainOnly: routes, ...extra });
  return sites;
}
/**
 * Page requests to the main site, minus discovery's one probe of the start URL (it settles redirects) and
 * the favicon check at the end (favicons.ts).
 */
const pagePaths = (s: FixtureSites) => {
  const paths = s.requests
    .filter((r) => r.origin === 'main' && !/\.(xml|gz|txt|ico)$/.test(r.path))
    .map((r) => r.path);
  const probe = paths.indexOf('/');
  if (probe >= 0) paths.splice(probe, 1);
  return paths;
};

afterEach(async () => {
  await sites?.close();
  sites = undefined;
});

describe('runCrawl', () => {
  it('discovers through robots.txt, sitemap index, .xml.gz, /sitemap.xml, uploaded sitemaps, the URL list and links', async () => {
    const s = await site((o) => ({
      '/': page(
        '/a',
        '/a/',
        '/a#top',
        '/b?q=1',
        '/b?q=1#f',
        `${o.cdn}/offsite`,
        'mailto:x@y.z',
        '/files/x.pdf',
      ),
      '/a': page('/', '/deep'),
      '/b': page(),
      '/deep': page(),
      '/robots.txt': {
        type: 'text/plain',
        body: `User-agent: *\nDisallow: /a\nSitemap: ${o.main}/maps/index.xml\n`,
      },
      '/maps/index.xml': {
        type: 'application/xml',
        body: `<sitemapindex><sitemap><loc>${o.main}/maps/pages.xml.gz</loc></sitemap></sitemapindex>`,
      },
      '/maps/pages.xml.gz': { type: 'application/gzip', body: gzipSync(urlset([`${o.main}/from-gz`])) },
      '/sitemap.xml': {
        type: 'application/xml',
        body: urlset([`${o.main}/from-default`, `${o.cdn}/not-ours`]),
      },
      '/uploaded.xml': { type: 'application/xml', body: urlset([`${o.main}/from-uploaded`]) },
      '/from-gz': page(),
      '/from-default': page(),
      '/from-uploaded': page(),
      '/from-list': page(),
    }));
    const o = s.origins;
    const { state, done } = await runCrawl(
      {
        url: `${o.main}/`,
        urlList: [`${o.main}/from-list`],
        sitemapContent: `${o.main}/uploaded.xml\n`,
        maxPages: 50,
        crawlDelay: 0,
        userAgent: 'CSPGeneratorTest/1.0',
      },
      null,
      // One tab, so pages complete in the order they were queued.
      { deadline: deadline(), allowPrivateTargets: true, concurrency: 1, ...noRerender },
    );
    expect(done).toBe(true);
    const crawled = state.pages.map((p) => new URL(p.url).pathname + new URL(p.url).search).sort();
    expect(crawled).toEqual([
      '/',
      '/a',
      '/b?q=1',
      '/deep',
      '/from-default',
      '/from-gz',
      '/from-list',
      '/from-uploaded',
    ]);
    // Never the same page twice (fragments, trailing slash), no downloads, nothing off-site.
    const paths = pagePaths(s);
    expect(paths.length).toBe(new Set(paths).size);
    expect(paths).not.toContain('/files/x.pdf');
    expect(s.requests.filter((r) => r.origin !== 'main')).toEqual([]);
    // Start page first, then the list, then sitemap pages breadth first (uploaded, /sitemap.xml, then the
    // children of robots.txt's index), then links breadth first.
    expect(state.pages.map((p) => p.url.slice(o.main.length))).toEqual([
      '/',
      '/from-list',
      '/from-uploaded',
      '/from-default',
      '/from-gz',
      '/a',
      '/b?q=1',
      '/deep',
    ]);
    expect(state.errors).toEqual([
      `1 listed URL(s) outside ${o.main} were not crawled (only that origin is analysed).`,
    ]);
    // The custom user agent on every request: discovery fetches and the browser's.
    expect(new Set(s.requests.map((r) => r.userAgent))).toEqual(new Set(['CSPGeneratorTest/1.0']));
  });

  it('takes uploaded sitemap XML as is', async () => {
    const s = await site(() => ({ '/only-uploaded': page(), '/other': page() }));
    const { state } = await runCrawl(
      { sitemapContent: urlset([`${s.origins.main}/only-uploaded`]), maxPages: 5, crawlDelay: 0 },
      null,
      { deadline: deadline(), allowPrivateTargets: true, ...noRerender },
    );
    expect(state.origin).toBe(s.origins.main);
    expect(state.pages.map((p) => p.url)).toEqual([`${s.origins.main}/only-uploaded`]);
  });

  it('stops at maxPages and reports monotonic progress', async () => {
    const links = Array.from({ length: 10 }, (_, i) => `/p${i}`);
    const s = await site(() => Object.fromEntries([['/', page(...links)], ...links.map((l) => [l, page()])]));
    const progress: CrawlProgress[] = [];
    const { state, done } = await runCrawl({ url: `${s.origins.main}/`, maxPages: 3, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ...noRerender,
      onProgress: (p) => {
        progress.push(p);
      },
    });
    expect(done).toBe(true);
    expect(state.pages).toHaveLength(3);
    expect(pagePaths(s)).toHaveLength(3);
    expect(progress.every((p, i) => i === 0 || p.progress >= progress[i - 1]!.progress)).toBe(true);
    expect(progress.every((p) => p.totalPages <= 3)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ currentPage: null, pagesDone: 3, totalPages: 3 });
    expect(progress.some((p) => p.currentPage === `${s.origins.main}/`)).toBe(true);
  });

  it('shows the first page as one of a site of unknown size, then moves with every page', async () => {
    // No sitemap: while the start page is visited, the crawl knows one page. Counted as one of one, half a
    // page in flight claimed half the crawl's band at once and the bar stood still while the six pages it
    // linked filled the band again; it is one of UNKNOWN_SITE_PAGES until its links are known.
    const links = Array.from({ length: 6 }, (_, i) => `/p${i}`);
    const s = await site(() => Object.fromEntries([['/', page(...links)], ...links.map((l) => [l, page()])]));
    const progress: CrawlProgress[] = [];
    const { done } = await runCrawl({ url: `${s.origins.main}/`, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      concurrency: 1,
      ...noRerender,
      onProgress: (p) => {
        progress.push(p);
      },
    });
    expect(done).toBe(true);
    const bands = (pages: number) => stageBands(pages, { rerender: false, crawlDelayMs: 0 });
    const first = progress.find((p) => p.currentPage === `${s.origins.main}/`);
    expect(first).toMatchObject({ totalPages: 1, pagesDone: 0 });
    expect(first!.progress).toBe(
      stagePercent(bands(UNKNOWN_SITE_PAGES), 'crawling', 0.5 / UNKNOWN_SITE_PAGES),
    );
    // One tab: each page moves the figure when it starts and when it ends, up to the whole crawl band.
    const figures = [...new Set(progress.filter((p) => p.phase === 'crawling').map((p) => p.progress))];
    expect(figures.length).toBeGreaterThanOrEqual(2 * 7 - 1);
    expect(figures.at(-1)).toBe(Math.floor(bands(7).crawling[1]));
  });

  it('honours crawlDelay per host, discovery fetches included', async () => {
    const s = await site(() => ({ '/': page('/1', '/2', '/3'), '/1': page(), '/2': page(), '/3': page() }));
    await runCrawl({ url: `${s.origins.main}/`, maxPages: 4, crawlDelay: 250 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ...noRerender,
      concurrency: 4,
    });
    const times = s.requests.filter((r) => r.origin === 'main').map((r) => r.at);
    // start-page probe, robots.txt, sitemap.xml, 4 pages, /favicon.ico
    expect(times.length).toBe(8);
    // Slots are taken when a request starts; arrival at the server jitters (more on a loaded machine): a
    // request that waited in the client's event loop arrives late and the next one closer to it (gaps of
    // 74 ms were seen under load). The total below is what a politeness bug would break; each gap only has
    // to show that no two requests went out together.
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(25);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(7 * 250 - 30);
  });

  it('records failing pages (timeout, 4xx, 5xx, off-site redirect) and goes on', async () => {
    const s = await site(
      (o) => ({
        '/': page('/slow', '/gone', '/boom', '/away', '/fine'),
        '/slow': page(),
        '/gone': { status: 404, body: 'gone' },
        '/boom': { status: 500, body: 'boom' },
        '/away': { status: 302, headers: { location: `${o.cdn}/lib.js` } },
        '/fine': page(),
      }),
      { slowPaths: { '/slow': 10_000 } },
    );
    const o = s.origins;
    const { state, done } = await runCrawl({ url: `${o.main}/`, maxPages: 10, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ...noRerender,
      settle: { navigationTimeoutMs: 1_500 },
    });
    expect(done).toBe(true);
    expect(state.errors).toEqual(
      expect.arrayContaining([
        `${o.main}/slow: timed out after 1500 ms`,
        `${o.main}/gone: HTTP 404`,
        `${o.main}/boom: HTTP 500`,
        `${o.main}/away: redirected to ${o.cdn}, another site; not analysed`,
      ]),
    );
    expect(state.pages.map((p) => `${new URL(p.url).pathname} ${p.status}`).sort()).toEqual([
      '/ 200',
      '/boom 500',
      '/fine 200',
      '/gone 404',
    ]);
    // What gave no page is kept for the list of crawled pages, with why.
    expect(state.failures.map((f) => `${new URL(f.url).pathname} ${f.reason}`).sort()).toEqual([
      `/away Redirected to ${o.cdn}, another site`,
      '/slow timed out after 1500 ms',
    ]);
  });

  it('stops before its deadline and continues from its JSON state without visiting a page twice', async () => {
    const links = Array.from({ length: 7 }, (_, i) => `/p${i}`);
    const s = await site(() => Object.fromEntries([['/', page(...links)], ...links.map((l) => [l, page()])]));
    const job = { url: `${s.origins.main}/`, maxPages: 20, crawlDelay: 200 };
    const first = await runCrawl(job, null, {
      deadline: Date.now() + 1_400,
      allowPrivateTargets: true,
      ...noRerender,
      pageReserveMs: 0,
    });
    expect(first.done).toBe(false);
    expect(first.state.pages.length).toBeGreaterThan(0);
    expect(first.state.pages.length).toBeLessThan(8);
    const stored = parseCrawlState(JSON.parse(JSON.stringify(first.state)));
    const second = await runCrawl(job, stored, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ...noRerender,
    });
    expect(second.done).toBe(true);
    expect(second.state.runs).toBe(2);
    expect(second.state.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', ...links].sort());
    const paths = pagePaths(s);
    expect(paths.length).toBe(8);
    expect(new Set(paths).size).toBe(8);
    // Discovery ran once.
    expect(s.requests.filter((r) => r.path === '/robots.txt')).toHaveLength(1);
  });

  it('acts on pages: content behind a click is captured and marked, writes are answered, navigations crawled', async () => {
    const s = await site((o) => ({
      '/': {
        body: `<!doctype html><title>t</title>
<details><summary>More</summary><p>hidden</p></details>
<button id="toggle" type="button" aria-expanded="false">Thumbnails</button>
<button id="save" type="button">Save draft</button>
<button id="ask" type="button">Ask</button>
<form id="f" action="/subscribe" method="post"><input name="e" value="x"><button>Go</button>
<button id="quick" type="button">Quick</button></form>
<button id="away" type="button">Next</button>
<script src="/app.js"></script>`,
      },
      '/app.js': {
        type: 'text/javascript',
        body: `document.getElementById('toggle').addEventListener('click', function () {
  var img = new Image(); img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
  new FontFace('F', 'url(/fonts/f.woff2)').load().catch(function () {});
});
document.querySelector('details').addEventListener('toggle', function () { fetch('/api/more'); });
document.getElementById('save').addEventListener('click', function () {
  fetch(${JSON.stringify(`${o.api}/save`)}, { method: 'POST', body: 'x' }).catch(function () {});
  navigator.sendBeacon('/beacon', 'x');
});
document.getElementById('ask').addEventListener('click', function () { if (confirm('Sure?')) fetch('/api/confirmed'); });
document.getElementById('quick').addEventListener('click', function () { document.getElementById('f').submit(); });
document.getElementById('away').addEventListener('click', function () { location.href = '/only-by-click'; });`,
      },
      '/fonts/f.woff2': { type: 'font/woff2', body: 'x' },
      '/api/more': { type: 'application/json', body: '{}' },
      '/only-by-click': page(),
    }));
    const o = s.origins;
    const { state, done } = await runCrawl({ url: `${o.main}/`, maxPages: 5, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ...noRerender,
      // Six controls, each waited on until the page is quiet: on a loaded test machine the product's 4 s
      // budget can end before the last one ("Next", the navigation this test is about). The budget's own
      // end is tested elsewhere (interact tests).
      interactionBudgetMs: 15_000,
    });
    expect(done).toBe(true);
    const home = state.pages.find((p) => new URL(p.finalUrl).pathname === '/')!;
    const seen = (directive: string, url: string) =>
      home.observations.find((x) => x.type === 'url' && x.directive === directive && x.url === url);
    expect(seen('img-src', 'data:')).toMatchObject({ interaction: true });
    expect(seen('font-src', `${o.main}/fonts/f.woff2`)).toMatchObject({ interaction: true });
    expect(seen('connect-src', `${o.main}/api/more`)).toMatchObject({ interaction: true });
    expect(seen('connect-src', `${o.api}/save`)).toMatchObject({ interaction: true });
    // What loads without acting is not marked.
    expect(seen('script-src-elem', `${o.main}/app.js`)?.interaction).toBeUndefined();
    // Nothing was written to any server; the dialog was answered "cancel"; the form was never sent.
    expect(s.requests.filter((r) => !['GET', 'HEAD'].includes(r.method))).toEqual([]);
    expect(s.requests.some((r) => r.path === '/api/confirmed')).toBe(false);
    // The fetch and the beacon at least (the form's POST may be cancelled by the next button's navigation).
    expect(state.stats.writesAnswered).toBeGreaterThanOrEqual(2);
    expect(seen('connect-src', `${o.main}/beacon`)).toMatchObject({ interaction: true });
    // The navigation a button tried was blocked there and crawled as a page of its own.
    expect(state.stats.navigationsBlocked).toBeGreaterThanOrEqual(1);
    expect(state.pages.map((p) => new URL(p.finalUrl).pathname)).toContain('/only-by-click');
    expect(state.pages.every((p) => !p.incomplete)).toBe(true);
  });

  it("a crawled site cannot make its page look refused by us or put our refusal's words in the analysis", async () => {
    const fake = encodeURIComponent('Blocked request to 10.0.0.1: private addresses are not allowed');
    const s = await site(() => ({
      '/': {
        ...page('/second'),
        // The header name our proxy once used for its refusals, and names like it.
        headers: { 'x-csp-crawler-blocked': fake, 'x-csp-crawler-0123456789abcdef01234567': fake },
      },
      '/second': { status: 502, body: 'Blocked request to 10.0.0.2: private addresses are not allowed' },
    }));
    const { state } = await runCrawl({ url: `${s.origins.main}/`, maxPages: 3, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ...noRerender,
    });
    expect(state.pages.map((p) => `${new URL(p.finalUrl).pathname} ${p.status}`).sort()).toEqual([
      '/ 200',
      '/second 502',
    ]);
    expect(state.errors.filter((e) => e.includes('Blocked request'))).toEqual([]);
    expect(state.errors).toContain(`${s.origins.main}/second: HTTP 502`);
  });

  it('says in words why a site could not be reached', async () => {
    const s = await site(() => ({ '/': page() }));
    const closed = `http://127.0.0.1:${new URL(s.origins.main).port}`;
    await s.close();
    sites = undefined;
    const { state } = await runCrawl({ url: `${closed}/`, maxPages: 1, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ...noRerender,
    });
    expect(state.pages).toEqual([]);
    expect(state.errors).toContain(`connection refused at ${closed}/`);
  });

  it("never reaches the product's own listeners, even with private targets allowed", async () => {
    const s = await site((o) => ({
      '/': {
        body: `<!doctype html><title>t</title><img src="${o.assets}/own.png">
<script>fetch(${JSON.stringify(`${o.assets}/api/user`)}).catch(function () {});</script>`,
      },
    }));
    // Pretend the assets origin's port is the product's API: the page asks for it, nothing may arrive.
    const own = Number(new URL(s.origins.assets).port);
    const { state } = await runCrawl({ url: `${s.origins.main}/`, maxPages: 2, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ownPorts: [own],
      ...noRerender,
    });
    expect(state.pages.map((p) => p.status)).toEqual([200]);
    expect(s.requests.filter((r) => r.origin === 'assets')).toEqual([]);
    expect(state.errors).toContain(
      `Blocked request to 127.0.0.1:${own}: the product's own services are never crawled`,
    );
    // Crawling the listener itself is refused before any request.
    const direct = await runCrawl({ url: `${s.origins.assets}/`, maxPages: 1, crawlDelay: 0 }, null, {
      deadline: deadline(),
      allowPrivateTargets: true,
      ownPorts: [own],
      ...noRerender,
    });
    expect(direct.state.pages).toEqual([]);
    expect(s.requests.filter((r) => r.origin === 'assets')).toEqual([]);
  });
});
