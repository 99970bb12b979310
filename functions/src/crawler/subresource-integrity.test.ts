// Subresource Integrity from the crawl, end to end on loopback: a site whose pages load a versioned CDN script
// and stylesheet served with `Access-Control-Allow-Origin: *`, a same-origin hashed bundle, and an
// unversioned script and stylesheet from an origin without CORS. The crawl records each file's digests and
// CORS, the proposal makes the first three ready and says why not for the others, and the proof: a page
// carrying exactly the proposed tags loads and runs the scripts and applies the stylesheet in Chromium and in
// Firefox, and refuses them once one byte of the served files changes (the browsers do check what we pin).
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scriptsWithoutIntegrity } from '@csp/shared/configurations/site-facts';
import { integrityProposal } from '@csp/shared/integrity/proposal';
import { integrityTag } from '@csp/shared/integrity/tags';
import type { SubresourceIntegrity } from '@csp/shared/schemas/subresource-integrity';
import { reconcileInventory } from '@csp/shared/watch/inventory';
import { runSnapshotOf } from '@csp/shared/watch/run-snapshot';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumEnvironment, closeBrowser, DROPPED_FLAGS } from './browser';
import { runCrawl } from './crawl';
import { findFirefox } from './firefox';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';
import { parseCrawlState } from './state';

const firefox = findFirefox(process.env.FIREFOX_PATH);
if ('unavailable' in firefox) console.log('skipped: needs firefox-esr');

const digest = (algorithm: 'sha256' | 'sha384', text: string) =>
  `${algorithm}-${createHash(algorithm).update(text).digest('base64')}`;
const mark = (name: string) => `(window.__marks = window.__marks || []).push(${JSON.stringify(name)});`;

/** What the fixture files serve; the proof changes one byte of them. */
const served = {
  lib: mark('lib'),
  // What it @imports has no element to carry integrity: not recorded, not proposed.
  theme: '@import url("imported.css"); #probe { color: rgb(1, 2, 3); }',
  app: mark('app'),
  widget: mark('widget'),
  plain: '#plain { color: rgb(4, 5, 6); }',
};
const original = { ...served };
/** The body of the main site's /proof page (set once the proposal is known). */
let proofPage = '';

let sites: FixtureSites;
let noCors: http.Server;
let noCorsOrigin: string;
let proposal: SubresourceIntegrity;
let state: ReturnType<typeof parseCrawlState>;

const paths = {
  lib: '/sri/lib@1.2.3/lib.js',
  theme: '/sri/theme.3f9a1c2b.css',
  app: '/sri/app.0c1d2e3f4a.js',
  widget: '/sri/widget.js',
  plain: '/sri/plain.css',
};
const urls = () => ({
  lib: `${sites.origins.cdn}${paths.lib}`,
  theme: `${sites.origins.cdn}${paths.theme}`,
  app: `${sites.origins.main}${paths.app}`,
  widget: `${noCorsOrigin}${paths.widget}`,
  plain: `${noCorsOrigin}${paths.plain}`,
});

beforeAll(async () => {
  // An origin that answers without any CORS header (the fixture's third parties all send ACAO: *).
  noCors = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body = path === paths.widget ? served.widget : path === paths.plain ? served.plain : null;
    if (body === null) return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': path.endsWith('.css') ? 'text/css' : 'text/javascript',
      'cache-control': 'no-store',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => noCors.listen(0, '127.0.0.1', resolve));
  noCorsOrigin = `http://127.0.0.1:${(noCors.address() as AddressInfo).port}`;
  sites = await startFixtureSites({
    mainOnly: (o) => {
      const page = (title: string, body: string) => ({
        type: 'text/html',
        body: `<!doctype html><title>${title}</title>${body}<p id="probe">probe</p><p id="plain">plain</p><a href="/two">two</a>`,
      });
      return {
        '/': page(
          'home',
          `<link rel="stylesheet" href="${o.cdn}${paths.theme}"><link rel="stylesheet" href="${noCorsOrigin}${paths.plain}">` +
            `<script src="${o.cdn}${paths.lib}"></script><script src="${paths.app}" integrity="${digest('sha384', served.app)}"></script><script src="${noCorsOrigin}${paths.widget}"></script>`,
        ),
        '/two': page('two', `<script src="${o.cdn}${paths.lib}"></script>`),
        [paths.app]: { type: 'text/javascript', body: () => served.app },
        '/proof': { type: 'text/html', body: () => proofPage },
      };
    },
    extraRoutes: () => ({
      cdn: {
        [paths.lib]: { type: 'text/javascript', body: () => served.lib },
        [paths.theme]: { type: 'text/css', body: () => served.theme },
        '/sri/imported.css': { type: 'text/css', body: '#other { color: rgb(7, 8, 9); }' },
      },
    }),
  });
  const crawled = await runCrawl({ url: `${sites.origins.main}/`, maxPages: 2, crawlDelay: 0 }, null, {
    deadline: Date.now() + 120_000,
    allowPrivateTargets: true,
    rerender: false,
  });
  // What the crawl recorded survives its checkpoint (the state is parsed when a run continues).
  state = parseCrawlState(JSON.parse(JSON.stringify(crawled.state)));
  proposal = integrityProposal(state.watch, state.origin);
}, 180_000);

afterAll(async () => {
  await sites?.close();
  await new Promise((resolve) => noCors?.close(resolve));
});

describe('Subresource Integrity from the crawl', () => {
  it('records each external script with its SHA-384, SHA-256 and CORS, and each stylesheet', () => {
    const u = urls();
    expect(state.errors).toEqual([]);
    const home = state.watch.find((p) => p.page === `${sites.origins.main}/`);
    const script = (url: string) => home?.scripts.find((s) => s.url === url);
    expect(script(u.lib)).toEqual({
      kind: 'external',
      url: u.lib,
      digest: digest('sha384', served.lib),
      sha256: digest('sha256', served.lib),
      cors: true,
      initiator: null,
      integrity: false,
    });
    expect(script(u.app)).toMatchObject({
      digest: digest('sha384', served.app),
      cors: false,
      integrity: true,
    });
    expect(script(u.widget)).toMatchObject({
      digest: digest('sha384', served.widget),
      sha256: digest('sha256', served.widget),
      cors: false,
    });
    expect(home?.stylesheets).toEqual(
      expect.arrayContaining([
        { url: u.theme, digest: digest('sha384', served.theme), cors: true },
        { url: u.plain, digest: digest('sha384', served.plain), cors: false },
      ]),
    );
    expect(home?.stylesheets).toHaveLength(2);
    // The run's snapshot and the inventory fold carry the SHA-256 and CORS of each external script.
    const snapshot = runSnapshotOf({
      analysisId: 'a',
      completedAt: '2026-01-01T00:00:00.000Z',
      siteOrigins: [state.origin],
      policy: {},
      pages: state.watch,
    });
    const { entries } = reconcileInventory([], snapshot, []);
    expect(entries.find((e) => e.url === u.lib)).toMatchObject({
      digest: digest('sha384', served.lib),
      sha256: digest('sha256', served.lib),
      cors: true,
    });
    expect(entries.find((e) => e.url === u.widget)).toMatchObject({ cors: false });
    // The page includes only the bundle with an integrity attribute: an enforced Integrity-Policy would refuse
    // the other two scripts, and the configuration audit counts them.
    expect(entries.find((e) => e.url === u.app)).toMatchObject({ integrity: true });
    expect(entries.find((e) => e.url === u.lib)).toMatchObject({ integrity: false });
    expect(entries.find((e) => e.url === u.widget)).toMatchObject({ integrity: false });
    expect(scriptsWithoutIntegrity(entries)).toBe(2);
  });

  it('proposes integrity for the versioned files the browser may read, and says why not for the others', () => {
    const u = urls();
    const byUrl = new Map(proposal.resources.map((r) => [r.url, r]));
    expect(byUrl.get(u.lib)).toEqual({
      kind: 'script',
      url: u.lib,
      sha384: digest('sha384', served.lib),
      ready: true,
      crossorigin: 'anonymous',
      reasons: [],
      pageCount: 2,
    });
    expect(byUrl.get(u.theme)).toMatchObject({ kind: 'stylesheet', ready: true, crossorigin: 'anonymous' });
    // Same origin: readable without CORS, no crossorigin attribute.
    expect(byUrl.get(u.app)).toMatchObject({ ready: true, crossorigin: null });
    expect(byUrl.get(u.widget)).toMatchObject({ ready: false, reasons: ['no-version', 'no-cors'] });
    expect(byUrl.get(u.plain)).toMatchObject({
      kind: 'stylesheet',
      ready: false,
      reasons: ['no-version', 'no-cors'],
    });
    expect(proposal.resourceCount).toBe(5);
    // Two templates: the home page's five files, and /two's one.
    expect(proposal.templates.map((t) => [t.page, t.pageCount, t.resources.length])).toEqual([
      [`${sites.origins.main}/`, 1, 5],
      [`${sites.origins.main}/two`, 1, 1],
    ]);
  });

  const engines: [string, () => Promise<Browser>][] = [['Chromium', launchChromium]];
  if ('executablePath' in firefox) {
    const { executablePath } = firefox;
    engines.push(['Firefox', () => launchFirefoxPlain(executablePath)]);
  }
  describe.each(engines)('in %s', (_engine, launch) => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launch();
    }, 120_000);
    afterAll(async () => {
      Object.assign(served, original);
      if (browser) await closeBrowser(browser);
    });

    it('the proposed tags load and run the scripts and apply the stylesheet; a changed byte is refused', async () => {
      const u = urls();
      const tags = proposal.resources.flatMap((r) => integrityTag(r) ?? []);
      expect(tags).toHaveLength(3);
      // The file SRI is not proposed for, tagged anyway: its server's lack of CORS makes the browser refuse it.
      const widget = proposal.resources.find((r) => r.url === u.widget);
      const forced = `<script src="${u.widget}" integrity="${widget?.sha384}" crossorigin="anonymous"></script>`;
      proofPage = `<!doctype html><title>proof</title>${tags.join('')}${forced}<p id="probe">probe</p>`;

      const visit = async () => {
        const page = await browser.newPage();
        try {
          await page.goto(`${sites.origins.main}/proof`, { waitUntil: 'load', timeout: 60_000 });
          return (await page.evaluate(
            "({ marks: (window.__marks || []).slice().sort(), color: getComputedStyle(document.getElementById('probe')).color })",
          )) as { marks: string[]; color: string };
        } finally {
          await page.close();
        }
      };
      expect(await visit()).toEqual({ marks: ['app', 'lib'], color: 'rgb(1, 2, 3)' });

      // One byte changed in each pinned CDN file: the browser refuses both; the unchanged bundle still runs.
      served.lib = served.lib.replace('lib', 'lid');
      served.theme = served.theme.replace('rgb(1, 2, 3)', 'rgb(1, 2, 4)');
      expect(await visit()).toEqual({ marks: ['app'], color: 'rgb(0, 0, 0)' });
      Object.assign(served, original);
    }, 120_000);
  });
});

async function launchChromium(): Promise<Browser> {
  const executablePath = await chromium.executablePath();
  return puppeteer.launch({
    executablePath,
    env: chromiumEnvironment(process.env),
    // As the crawler runs it: with web security (a browser without it would load what a visitor's refuses).
    args: chromium.args.filter((arg) => !DROPPED_FLAGS.includes(arg) && !arg.startsWith('--headless')),
    headless: true,
    protocolTimeout: 60_000,
  });
}

/** Firefox as a visitor has it (no proxy: the fixture is on loopback). */
function launchFirefoxPlain(executablePath: string): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath,
    env: chromiumEnvironment(process.env),
    headless: true,
    protocolTimeout: 60_000,
  });
}
