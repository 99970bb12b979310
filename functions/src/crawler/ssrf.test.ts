// The SSRF guard end to end, with loopback fixtures as the forbidden targets (never any other address).
// 1. Production setting (private targets refused): a crawl aimed at loopback sends it nothing at all and
//    says why on the result.
// 2. A narrowed guard (only 127.0.0.1 allowed) on the full corpus: every request the browser makes — page
//    loads, scripts, a redirect hop, dedicated and service workers' fetches, frames — goes through the
//    proxy, and the refused address (127.0.0.2: the CDN and frames origins) receives nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawl } from './crawl';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites({
    extraRoutes: (o) => ({
      main: { '/to-elsewhere': { status: 302, headers: { location: `${o.cdn}/lib.js` } } },
    }),
  });
});
afterAll(async () => {
  await sites?.close();
});

describe('SSRF guard', () => {
  it('with private targets refused, a crawl of a loopback site sends it zero requests', async () => {
    const before = sites.requests.length;
    const { state, done } = await runCrawl(
      {
        url: `${sites.origins.main}/`,
        urlList: [`${sites.origins.main}/scripts`],
        sitemapContent: `${sites.origins.main}/sitemap.xml\n${sites.origins.api}/sitemap.xml`,
        maxPages: 10,
        crawlDelay: 0,
      },
      null,
      { deadline: Date.now() + 60_000, allowPrivateTargets: false },
    );
    expect(done).toBe(true);
    expect(state.pages).toEqual([]);
    expect(state.errors).toEqual(['Blocked request to 127.0.0.1: loopback addresses are not allowed']);
    expect(sites.requests.slice(before)).toEqual([]);
  });

  it('a localhost URL is refused by what it resolves to', async () => {
    const before = sites.requests.length;
    const { state } = await runCrawl({ url: `${sites.origins.api}/`, maxPages: 2, crawlDelay: 0 }, null, {
      deadline: Date.now() + 60_000,
      allowPrivateTargets: false,
    });
    expect(state.errors).toEqual([
      'Blocked request to localhost (127.0.0.1): loopback addresses are not allowed',
    ]);
    expect(sites.requests.slice(before)).toEqual([]);
  });

  it('every browser request goes through the proxy: refused origins receive nothing', async () => {
    const before = sites.requests.length;
    const { state } = await runCrawl(
      {
        url: `${sites.origins.main}/`,
        urlList: [`${sites.origins.main}/to-elsewhere`],
        maxPages: 30,
        crawlDelay: 0,
      },
      null,
      {
        deadline: Date.now() + 120_000,
        allowPrivateTargets: false,
        checkAddress: (address) =>
          address === '127.0.0.1'
            ? { allowed: true }
            : { allowed: false, reason: 'only 127.0.0.1 is allowed here' },
      },
    );
    const requests = sites.requests.slice(before);
    // The allowed origin was crawled (pages that need workers, sockets, frames… included)…
    const mainPaths = new Set(requests.filter((r) => r.origin === 'main').map((r) => r.path));
    for (const path of ['/', '/workers', '/network', '/frames', '/scripts', '/js/worker.js', '/sw.js']) {
      expect(mainPaths).toContain(path);
    }
    expect(requests.some((r) => r.origin === 'assets')).toBe(true);
    // …and nothing reached the refused one: not the CDN scripts (one behind a redirect), not the dedicated
    // worker's fetch (CDN), not the service worker's (frames origin), not the cross-site frames.
    expect(requests.filter((r) => r.origin === 'cdn' || r.origin === 'frames')).toEqual([]);
    expect(state.errors).toContain('Blocked request to 127.0.0.2: only 127.0.0.1 is allowed here');
    // The page that redirects off-site: its target was refused by the proxy, not loaded.
    expect(state.pages.find((p) => p.url.endsWith('/to-elsewhere'))).toBeUndefined();
  }, 120_000);
});
