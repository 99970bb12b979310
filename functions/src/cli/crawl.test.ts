// `csp-generator crawl` as a pipeline runs it (the real entry point, a child process): it crawls a loopback
// fixture site with the product's crawler, generator and verification, and the policy it prints passes the
// acid test — enforced in real Chromium, every script of the site still runs and nothing is blocked. With
// the production SSRF guard (no --allow-private) the same site is refused and receives nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadUnderPolicy } from '../crawler/fixtures/enforce';
import { type FixtureSites, startFixtureSites } from '../crawler/fixtures/sites';
import { runCliProcess } from '../testing/cli-process';
import { policyFromFile } from './policy-file';

const MARKS: Record<string, string[]> = {
  '/cli-home': ['home-inline', 'cdn-lib', 'img-cdn'],
  '/cli-about': ['fetched', 'styled'],
};

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites({
    mainOnly: (o) => {
      const page = (title: string, body: string) =>
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><script src="/js/marks.js"></script></head><body><h1>${title}</h1>${body}</body></html>`;
      return {
        '/js/marks.js': {
          type: 'text/javascript',
          body: 'window.__ran = window.__ran || []; window.__mark = function (m) { if (window.__ran.indexOf(m) < 0) window.__ran.push(m); };',
        },
        '/cli-home': {
          body: page(
            'Home',
            `<script>__mark('home-inline')</script>
<script src="${o.cdn}/lib.js"></script>
<img id="logo" src="${o.cdn}/img/pixel.png" alt="">
<script>var i = document.getElementById('logo'); if (i.complete) __mark('img-cdn'); else i.addEventListener('load', function () { __mark('img-cdn'); });</script>
<a href="/cli-about">About</a>`,
          ),
        },
        '/cli-about': {
          body: page(
            'About',
            `<link rel="stylesheet" href="${o.cdn}/style.css"><p class="from-cdn" id="p">styled</p>
<script src="/js/about.js"></script>`,
          ),
        },
        '/js/about.js': {
          type: 'text/javascript',
          body: `fetch(${JSON.stringify(`${o.api}/data.json`)}).then(function (r) { if (r.ok) __mark('fetched'); });
window.addEventListener('load', function () { if (getComputedStyle(document.getElementById('p')).color === 'rgb(1, 2, 3)') __mark('styled'); });`,
        },
      };
    },
  });
});
afterAll(() => sites?.close());

describe('csp-generator crawl', () => {
  it('prints a verified policy that the site passes enforced (the acid test)', async () => {
    const run = await runCliProcess(
      ['crawl', `${sites.origins.main}/cli-home`, '--max-pages', '5', '--allow-private', '--chromium-only'],
      { timeoutMs: 240_000 },
    );
    expect(run.stderr).toMatch(/verified on \d+ pages \(chromium\): no violations/);
    expect(run.code).toBe(0);
    const expected = policyFromFile(run.stdout);
    expect(run.stdout).toMatch(/^Content-Security-Policy: /);
    expect(expected?.reportOnly).toBe(false);
    // Progress went to stderr as plain lines (no terminal here), never to stdout.
    expect(run.stderr).toMatch(/^crawl: \d+% crawling/m);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    // What the site loads from its other origins is in the policy.
    expect(expected!.value).toContain(sites.origins.cdn);
    expect(expected!.value).toContain(sites.origins.api);

    const results = await loadUnderPolicy(sites, Object.keys(MARKS), expected!.value, {
      extraMarks: MARKS,
      interact: false,
    });
    expect(results).toEqual(Object.keys(MARKS).map((path) => ({ path, missing: [], violations: [] })));
  }, 300_000);

  it('refuses a loopback site without --allow-private (the production SSRF guard), which receives nothing', async () => {
    const before = sites.requests.length;
    const run = await runCliProcess(['crawl', `${sites.origins.main}/cli-home`, '--chromium-only'], {
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/No page could be crawled/);
    expect(run.stdout).toBe('');
    expect(sites.requests.slice(before)).toEqual([]);
  }, 150_000);
});
