import { describe, expect, it } from 'vitest';
import type { PageArtifact } from '../csp/artifact';
import { CRAWLED_PAGES_LIMITS, crawledPagesSchema, pageFailed } from '../schemas/crawled-pages';
import { summarizeCrawledPages } from './crawled-pages';

const origin = 'https://example.test';
function page(path: string, status: number, urls: [string, string][]): PageArtifact {
  const url = `${origin}${path}`;
  return {
    url,
    finalUrl: url,
    status,
    observations: urls.map(([directive, u]) => ({ type: 'url', directive, url: u, page: url }) as never),
  };
}

describe('summarizeCrawledPages', () => {
  it('lists every URL with its status, failures first, and what each page loaded', () => {
    const list = summarizeCrawledPages(
      [
        page('/', 200, [
          ['img-src', 'https://cdn.test/a.png'],
          ['script-src-elem', 'https://cdn.test/app.js'],
          ['img-src', 'https://cdn.test/a.png'],
        ]),
        page('/about', 200, [['img-src', 'https://cdn.test/a.png']]),
        page('/gone', 404, []),
      ],
      [
        { url: `${origin}/down`, reason: 'net::ERR_CONNECTION_REFUSED' },
        { url: `${origin}/notes.txt`, reason: 'HTTP 404', status: 404 },
      ],
    );
    expect(crawledPagesSchema.parse(list)).toEqual(list);
    expect(list.pages.map((p) => [p.url.replace(origin, ''), p.status, pageFailed(p)])).toEqual([
      ['/down', 0, true],
      ['/notes.txt', 404, true],
      ['/gone', 404, true],
      ['/', 200, false],
      ['/about', 200, false],
    ]);
    expect(list.pages[0]?.failure).toBe('net::ERR_CONNECTION_REFUSED');
    // The image loaded by both pages ranks first; the root page loaded two distinct resources.
    expect(list.resources[0]).toEqual({ directive: 'img-src', value: 'https://cdn.test/a.png', pages: 2 });
    const root = list.pages[3];
    expect(root?.resourceCount).toBe(2);
    expect(root?.loaded.map((i) => list.resources[i]?.value).sort()).toEqual([
      'https://cdn.test/a.png',
      'https://cdn.test/app.js',
    ]);
    expect(list.pagesTotal).toBe(5);
    expect(list.resourcesTotal).toBe(2);
  });

  it('names inline code by its hash source and keeps its sample', () => {
    const url = `${origin}/`;
    const list = summarizeCrawledPages(
      [
        {
          url,
          finalUrl: url,
          status: 200,
          observations: [
            { type: 'inline', directive: 'script-src-elem', hash: 'sha256-abc', sample: 'go()', page: url },
            { type: 'eval', page: url },
          ],
        },
      ],
      [],
    );
    expect(list.resources).toEqual([
      { directive: 'script-src-elem', value: "'sha256-abc'", sample: 'go()', pages: 1 },
      { directive: 'script-src', value: 'eval()', pages: 1 },
    ]);
  });

  it('fits its size budget on a huge crawl, keeping every index valid', () => {
    const pages = Array.from({ length: 800 }, (_, i) =>
      page(
        `/p${i}/${'x'.repeat(300)}`,
        200,
        Array.from({ length: 50 }, (_, j) => ['img-src', `https://cdn.test/${i}/${j}/${'y'.repeat(200)}`]),
      ),
    );
    const list = summarizeCrawledPages(pages, []);
    expect(JSON.stringify(list).length).toBeLessThanOrEqual(CRAWLED_PAGES_LIMITS.jsonChars);
    expect(crawledPagesSchema.safeParse(list).success).toBe(true);
    expect(list.pagesTotal).toBe(800);
    expect(list.resourcesTotal).toBe(40_000);
    expect(list.pages.length).toBeGreaterThan(0);
    for (const p of list.pages) for (const i of p.loaded) expect(list.resources[i]).toBeDefined();
  });
});
