// Letting work finish, and knowing who wrote a style: pages of loopback fixtures visited by a real capture
// tab. What a click starts on a timer (thumbnails drawn 300 ms later), what only page 2 of a paged
// document needs (reached through "Next page"), what a scrollable pane loads lazily: all captured; a page
// that never gets quiet (an endless animation) is waited for a bounded time only. Inline styles in the
// server's HTML are told apart from those a script inserted or rewrote.
import type { Observation } from '@csp/shared/csp/artifact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, withBrowserSession } from './browser-session';
import type { VisitResult } from './capture';
import { captureRoutes } from './fixtures/capture-content';
import { PIXEL_PNG } from './fixtures/content';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';
import { DENY_ALL_POLICY } from './request-interception';
import { DEFAULT_SETTLE } from './settle';

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites({
    mainOnly: () => ({
      ...captureRoutes(),
      '/js/marks.js': { type: 'text/javascript', body: 'window.__mark = function () {};' },
      '/pane': {
        body: `<!doctype html><title>Pane</title>
<div id="pane" style="height: 200px; overflow: auto"><div style="height: 3000px">log</div>
<img src="/pane/lazy.png" loading="lazy" alt=""></div>`,
      },
      '/pane/lazy.png': { type: 'image/png', body: PIXEL_PNG },
      // A carousel whose third slide shows an image: "Next slide" must be pressed as paging (twice and more),
      // not once as any other button.
      '/carousel': {
        body: `<!doctype html><title>Carousel</title><div id="slide">1</div>
<button type="button" class="carousel-control">Next slide</button>
<script>var n = 1; document.querySelector('button').addEventListener('click', function () {
  n++; document.getElementById('slide').textContent = n;
  if (n === 3) { var img = new Image(); img.src = '/carousel/3.png'; document.body.appendChild(img); }
});</script>`,
      },
      '/carousel/3.png': { type: 'image/png', body: PIXEL_PNG },
      // A map or 3D viewer: its tiles load only where WebGL works (the crawler composites on the CPU, but
      // pages keep their WebGL, so they load what they load for a visitor).
      '/webgl': {
        body: `<!doctype html><title>Map</title><canvas id="c"></canvas>
<script>var gl = document.getElementById('c').getContext('webgl2');
if (gl) { var img = new Image(); img.src = '/webgl/tile.png'; document.body.appendChild(img); }</script>`,
      },
      '/webgl/tile.png': { type: 'image/png', body: PIXEL_PNG },
      '/spinner': {
        body: `<!doctype html><title>Spinner</title><div id="s">0</div>
<script>(function spin(n) { document.getElementById('s').textContent = n; requestAnimationFrame(function () { spin(n + 1); }); })(0);</script>`,
      },
    }),
  });
});
afterAll(async () => {
  await sites?.close();
});

async function visit(path: string): Promise<VisitResult> {
  return withBrowserSession({ allowPrivateTargets: true }, async (session: BrowserSession) => {
    const tab = await session.openTab({ siteOrigin: () => sites.origins.main, policy: DENY_ALL_POLICY });
    try {
      return await tab.visit(`${sites.origins.main}${path}`);
    } finally {
      await tab.close();
    }
  });
}

const urls = (result: VisitResult) =>
  result.observations
    .filter((o): o is Extract<Observation, { type: 'url' }> => o.type === 'url')
    .map((o) => `${o.directive} ${o.url}${o.interaction ? ' (after acting)' : ''}`);

const styles = (result: VisitResult) =>
  result.observations
    .filter((o): o is Extract<Observation, { type: 'inline' }> => o.type === 'inline')
    .filter((o) => o.directive.startsWith('style'))
    .map((o) => `${o.directive} ${o.sample}${o.inserted ? ' (inserted)' : ''}`)
    .sort();

describe('letting work finish', () => {
  it('thumbnails drawn 300 ms after a click are captured: the wait outlasts the timer', async () => {
    const result = await visit('/thumbs');
    expect(result.incomplete).toBeUndefined();
    expect(urls(result)).toContain('img-src data: (after acting)');
    // Acting waited for the timer (each action is followed by a wait for quiet).
    expect(result.interactionMs).toBeGreaterThanOrEqual(250);
  }, 60_000);

  it('"Next page" is pressed until page 2, whose font is captured', async () => {
    const result = await visit('/paged');
    expect(result.incomplete).toBeUndefined();
    expect(urls(result)).toContain(`font-src ${sites.origins.main}/capture/fonts/page2.woff2 (after acting)`);
  }, 60_000);

  it('"Next slide" is pressed as paging: the third slide\'s image is captured', async () => {
    const result = await visit('/carousel');
    expect(urls(result)).toContain(`img-src ${sites.origins.main}/carousel/3.png (after acting)`);
  }, 60_000);

  it('a scrollable pane is scrolled through: its lazy image loads', async () => {
    const result = await visit('/pane');
    expect(urls(result)).toContain(`img-src ${sites.origins.main}/pane/lazy.png`);
  }, 60_000);

  it('a page drawing with WebGL gets it, and what it loads then is captured', async () => {
    const result = await visit('/webgl');
    expect(urls(result)).toContain(`img-src ${sites.origins.main}/webgl/tile.png`);
  }, 60_000);

  it('a page that never gets quiet (an endless animation) is waited for a bounded time, and complete', async () => {
    const started = Date.now();
    const result = await visit('/spinner');
    expect(result.incomplete).toBeUndefined();
    // Quiet never comes: after load, and after acting, each wait ends at its bound.
    expect(result.quietMs).toBeGreaterThanOrEqual(DEFAULT_SETTLE.idleMaxMs);
    expect(result.quietMs).toBeLessThan(3 * DEFAULT_SETTLE.idleMaxMs + 2_000);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});

describe('who wrote an inline style', () => {
  it('a style= in the server HTML is not inserted; a width measured and written by a script is', async () => {
    const result = await visit('/measured');
    const list = styles(result);
    expect(list).toContain('style-src-attr font: 14px monospace; white-space: pre');
    expect(list.filter((s) => s.startsWith('style-src-attr left:0px;width:'))).toHaveLength(1);
    expect(list.find((s) => s.startsWith('style-src-attr left:0px'))).toMatch(/\(inserted\)$/);
  }, 60_000);

  it('a <style> of the server HTML keeps its place; rewritten after a click, the new text is inserted', async () => {
    const result = await visit('/icons');
    const list = styles(result);
    expect(list).toContain('style-src-elem .icon::before { content: "*"; }');
    const rewritten = list.filter((s) => s !== 'style-src-elem .icon::before { content: "*"; }');
    expect(rewritten).toHaveLength(1);
    expect(rewritten[0]).toMatch(/^style-src-elem \.icon::before \{ content: "\*"; \}\.icon-.*\(inserted\)$/);
  }, 60_000);
});
