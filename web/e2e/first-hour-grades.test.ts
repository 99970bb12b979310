// A new user's first analysis, crawled for real on loopback: a clean site (an inline script, a handler,
// styles, a second origin for images and fonts, a form) reads 'Valid' with an A, the dashboard's Security
// Score follows, and the analysis page's exports are the rules generator's, byte for byte.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureSites, startFixtureSites } from '@csp/functions/src/crawler/fixtures/sites';
import { loopbackCrawlHandler } from '@csp/functions/src/testing/crawl-handler';
import { serverExport } from '@csp/shared/csp/server-export';
import type { Analysis } from '@csp/shared/schemas/analysis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clickSelector,
  clickText,
  dismissAchievementOverlay,
  fill,
  visibleText,
  waitForDownload,
  waitForPath,
  waitForToast,
} from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const SHOTS = '/tmp/shots-grades';
const blobDir = mkdtempSync(join(tmpdir(), 'csp-e2e-blobs-'));
const t = setupSignedInBrowser({
  crawlHandler: (deps) => loopbackCrawlHandler(deps, blobDir),
  downloads: true,
});
let sites: FixtureSites;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  sites = await startFixtureSites({
    mainOnly: (o) => {
      const page = (title: string, body: string) => ({
        type: 'text/html',
        body: `<!doctype html><title>${title}</title><link rel="stylesheet" href="/site.css"><style>h1{color:#123}</style><h1>${title}</h1>${body}<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>`,
      });
      return {
        '/': page(
          'Studio',
          `<img src="${o.cdn}/img/pixel.png" alt=""><script>document.documentElement.dataset.ready = '1';</script>`,
        ),
        '/about': page('About', '<button onclick="this.disabled=true">Like</button>'),
        '/contact': page(
          'Contact',
          '<form method="post" action="/contact"><input name="q"><button>Send</button></form>',
        ),
        '/site.css': {
          type: 'text/css',
          body: `@font-face{font-family:F;src:url(${o.cdn}/font.woff2)}body{font-family:F,sans-serif}`,
        },
      };
    },
  });
});

afterAll(async () => {
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

describe('the first analysis of a clean local site', () => {
  it('reads Valid and A, the dashboard score follows, and both places export the same policy', async () => {
    await t.page.setViewport({ width: 1440, height: 900 });
    await t.page.goto(`${t.server.url}/domains/new`, { waitUntil: 'load' });
    await t.page.waitForSelector('#domain-name');
    await fill(t.page, '#domain-name', 'Studio');
    await fill(t.page, '#domain-url', `${sites.origins.main}/`);
    await clickText(t.page, 'button', 'Create Domain');
    await waitForToast(t.page, 'Domain Created');
    await waitForPath(t.page, '/dashboard');
    await dismissAchievementOverlay(t.page);

    await clickText(t.page, '*', 'Studio');
    await t.page.waitForFunction(() => location.pathname.startsWith('/domains/'));
    const domainId = t.page.url().split('/domains/')[1]!.split(/[/?#]/)[0]!;
    await clickText(t.page, 'button', 'Quick Start Analysis');
    await waitForToast(t.page, 'Analysis Started');
    const results = await t.page.waitForSelector('xpath/.//a[normalize-space()="View Results"]', {
      timeout: 120_000,
    });
    await results!.click();
    await t.page.waitForFunction(() => location.pathname.startsWith('/analysis/'));
    const analysisId = t.page.url().split('/analysis/')[1]!.split(/[/?#]/)[0]!;
    // In the policy card: until the analysis screen's module has loaded, the domain screen is still shown,
    // and its security history chart's labels say "0 violations" too.
    await t.page.waitForSelector(
      'xpath/.//*[@data-testid="policy-card"]//*[contains(normalize-space(), "0 violations")]',
      { timeout: 20_000 },
    );

    // The verdict: Valid, grade A or A+, and no finding claims browsers ignore the IP sources they loaded.
    const grade = await t.page.$eval('[data-testid="policy-grade"]', (el) => el.getAttribute('data-grade'));
    expect(grade).toMatch(/^A\+?$/);
    const text = await visibleText(t.page);
    expect(text).toContain('Valid');
    expect(text).not.toContain('Security Issues');
    expect(text).not.toMatch(/ignored by browsers/i);
    const { analysis } = (await (await t.client.get(`/api/csp/analyze/${analysisId}`)).json()) as {
      analysis: Analysis;
    };
    // The policy does name the loopback origins over http (what the old grade punished).
    expect(JSON.stringify(analysis.cspRules)).toContain(sites.origins.cdn);
    expect(analysis.audit!.issues).toBe(0);
    for (const f of analysis.audit!.findings) {
      if (f.value?.startsWith('http://')) expect(f.severity, `${f.code} ${f.value}`).toBe('info');
    }
    await t.page.screenshot({ path: `${SHOTS}/analysis-1440.png`, fullPage: true });

    // csp-policy.txt names the header it is for.
    await clickSelector(t.page, '[data-testid="download-policy"]');
    expect(await waitForDownload(t.downloads, 'csp-policy.txt')).toMatch(
      /^Content-Security-Policy: default-src /,
    );

    // The strict policy's Nginx export: $request_id for the nonce, the same file as the rules generator's.
    await clickText(t.page, 'label', 'Strict');
    await t.page.waitForFunction(() =>
      document.querySelector('[data-testid="policy-header"]')?.textContent?.includes("'strict-dynamic'"),
    );
    await clickText(t.page, 'button', 'Nginx');
    await clickSelector(t.page, '[data-testid="download-nginx"]');
    const fromAnalysis = await waitForDownload(t.downloads, 'nginx.conf');
    expect(fromAnalysis).toContain("'nonce-$request_id'");
    expect(fromAnalysis).not.toContain('REPLACE-WITH-A-FRESH-NONCE');
    expect(fromAnalysis).toBe(serverExport('nginx', analysis.strictCspRules!, { reportOnly: false }).content);
    const saved = await t.client.post('/api/csp-configurations', {
      domainId,
      name: 'Production policy',
      baseAnalysisId: analysisId,
      cspRules: analysis.strictCspRules,
      serverType: 'nginx',
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    const fromGenerator = await (
      await t.client.get(`/api/csp-configurations/${id}/export?format=nginx`)
    ).text();
    expect(fromGenerator).toBe(fromAnalysis);

    await t.page.setViewport({ width: 390, height: 844 });
    await t.page.goto(t.page.url(), { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="policy-grade"]');
    await t.page.screenshot({ path: `${SHOTS}/analysis-390.png`, fullPage: true });
    // The findings at phone width, where the loopback notes read as information.
    await t.page.$$eval('h3, h2, [data-slot="card-title"]', (els) =>
      els.find((e) => e.textContent?.includes('Policy findings'))?.scrollIntoView(),
    );
    await t.page.screenshot({ path: `${SHOTS}/analysis-390-findings.png` });

    // The dashboard's Security Score is the mean of the same audits: not an F.
    await t.page.setViewport({ width: 1440, height: 900 });
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await dismissAchievementOverlay(t.page);
    const score = await t.page.waitForFunction(
      () => {
        const s = document.querySelector('[data-testid="security-score"]')?.textContent?.trim();
        return s && s !== '—' ? s : null;
      },
      { timeout: 15_000 },
    );
    expect(await score.jsonValue()).toMatch(/^A\+?$/);
    await t.page.screenshot({ path: `${SHOTS}/dashboard-1440.png` });
    t.guard.assertClean();
  }, 300_000);
});
