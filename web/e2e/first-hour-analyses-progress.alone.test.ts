// The progress of a real analysis as the user watches it: the real crawler crawls a six-page loopback site
// (inline script, handler, styles, a second origin for images and fonts), and the analysis screen's percent,
// sampled every 100 ms from the click on 'Quick Start Analysis' to the result, never goes backwards and never
// stays still for more than a quarter of the run (or two of the screen's reads, when longer). Screenshots of the progress card at 1440 and 390 px go to
// /tmp/shots-analyses/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSites, startFixtureSites } from '@csp/functions/src/crawler/fixtures/sites';
import { loopbackCrawlHandler } from '@csp/functions/src/testing/crawl-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_POLL_MS } from '../src/features/analyses/utils/progress';
import { clickText, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const SHOTS = '/tmp/shots-analyses';
const blobDir = mkdtempSync(join(tmpdir(), 'csp-e2e-blobs-'));
const t = setupSignedInBrowser({ crawlHandler: (deps) => loopbackCrawlHandler(deps, blobDir) });
let sites: FixtureSites;

const PAGES = ['/', '/about', '/shop', '/cart', '/contact', '/blog'];

beforeAll(async () => {
  sites = await startFixtureSites({
    mainOnly: (o) => {
      const nav = PAGES.map((p) => `<a href="${p}">${p}</a>`).join(' ');
      const page = (title: string, extra: string) => ({
        type: 'text/html',
        body: `<!doctype html><title>${title}</title><link rel="stylesheet" href="/site.css"><style>h1{color:#333}</style><h1>${title}</h1>${extra}<nav>${nav}</nav><script>document.title += '.'</script>`,
      });
      return {
        '/': page('Home', `<img src="${o.cdn}/logo.png" alt="">`),
        '/about': page('About', '<button onclick="this.disabled=true">Like</button>'),
        '/shop': page('Shop', `<img src="${o.cdn}/product.png" alt="">`),
        '/cart': page('Cart', '<form action="/cart" method="post"><button>Pay</button></form>'),
        '/contact': page('Contact', '<p style="margin:0">Write to us</p>'),
        '/blog': page('Blog', `<img src="${o.cdn}/post.png" alt="">`),
        '/site.css': { type: 'text/css', body: `@font-face{font-family:x;src:url(${o.cdn}/x.woff2)}` },
      };
    },
  });
});

afterAll(async () => {
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

interface Sample {
  at: number;
  percent: number | null;
}

describe('progress of a real analysis', () => {
  it('moves with the work: never backwards, never still for more than a quarter of the run', async () => {
    const res = await t.client.post('/api/domains', { name: 'Six pages', url: `${sites.origins.main}/` });
    expect(res.status).toBe(201);
    const domain = (await res.json()) as { id: string };
    await t.page.setViewport({ width: 1440, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('xpath/.//button[normalize-space()="Quick Start Analysis"]');
    const startedAt = Date.now();
    await clickText(t.page, 'button', 'Quick Start Analysis');
    await waitForToast(t.page, 'Analysis Started');
    const live = await t.page.waitForSelector('xpath/.//a[normalize-space()="View live progress"]');
    await live!.click();
    await t.page.waitForFunction(() => location.pathname.startsWith('/analysis/'));

    // The percent the progress card shows, every 100 ms, until the card gives way to the result.
    const samples: Sample[] = [];
    let shots: Promise<void> | undefined;
    for (;;) {
      const percent = await t.page.evaluate(() => {
        const el = document.querySelector('[data-testid="progress-percent"]');
        return el ? Number.parseInt(el.textContent ?? '', 10) : null;
      });
      const done = await t.page.evaluate(() => document.body.innerText.includes('Verified on'));
      if (done) break;
      samples.push({ at: Date.now(), percent });
      // Mid-run (the last figures before the result can come 2 s apart on a fast run, past 40 % at once),
      // beside the sampling: with the crawler's browsers busy on the same two cores a screenshot waits
      // seconds for a frame (5–9 s seen), and a sampling loop waiting for it saw one figure for that long.
      if (!shots && percent !== null && percent >= 15) shots = screenshots();
      expect(Date.now() - startedAt, 'the analysis finished').toBeLessThan(150_000);
      await new Promise((r) => setTimeout(r, 100));
    }
    const endedAt = Date.now();
    const run = endedAt - startedAt;
    const shown = samples.filter((s): s is { at: number; percent: number } => s.percent !== null);
    expect(shown.length).toBeGreaterThan(10);

    // Never backwards.
    for (let i = 1; i < shown.length; i++)
      expect(shown[i]!.percent).toBeGreaterThanOrEqual(shown[i - 1]!.percent);
    // The longest time one figure stayed on screen, from the card's first figure up to the result (the
    // navigation from the click to the card is not a figure standing still).
    const changes = [
      ...shown.filter((s, i) => i === 0 || s.percent !== shown[i - 1]!.percent).map((s) => s.at),
      endedAt,
    ];
    const longest = Math.max(...changes.slice(1).map((at, i) => at - changes[i]!));
    const figures = [...new Set(shown.map((s) => s.percent))];
    const held = changes.slice(1).map((at, i) => `${at - changes[i]!}`);
    console.log(
      `run ${run} ms; longest still ${longest} ms (${Math.round((100 * longest) / run)} %); figures ${figures.join(' ')}; held ms ${held.join(' ')}`,
    );
    // The screen reads the percent every ANALYSIS_POLL_MS (the spec's 2 s), so a figure can stand for two
    // reads while the work moved in between (the last one until the result is read): that is the finest
    // the screen can show, and a six-page run is short enough for two reads to be a quarter of it. The
    // 1 s beyond is the two reads' own round trips and this loop's sampling on a machine running the whole
    // suite (4.57 s was seen there, with reads on time).
    expect(longest).toBeLessThanOrEqual(Math.max(run * 0.25, 2 * ANALYSIS_POLL_MS + 1_000));
    // It did climb through the run, not jump at the end: a new figure at nearly every read (a 12 s run is
    // read six times).
    expect(figures.length).toBeGreaterThanOrEqual(Math.min(5, Math.floor(run / ANALYSIS_POLL_MS) - 1));
    expect(shots).toBeDefined();
    await shots;
  }, 200_000);
});

/** The progress card at 1440 and 390 px, mid-run. */
async function screenshots() {
  mkdirSync(SHOTS, { recursive: true });
  for (const [name, width, height] of [
    ['desktop', 1440, 900],
    ['phone', 390, 844],
  ] as const) {
    await t.page.setViewport({ width, height });
    await t.page.evaluate(() => window.scrollTo(0, 0));
    await t.page.screenshot({
      path: join(SHOTS, `progress-card-${name}.png`) as `${string}.png`,
      fullPage: true,
    });
  }
  await t.page.setViewport({ width: 1440, height: 900 });
}
