// THE ACID TEST: crawl the fixture corpus, generate the policy, then load every crawled page in real
// Chromium with that policy ENFORCED. Every resource must still load, every script still run (each fixture
// script leaves a mark), no violation may fire (DOM events and report-uri reports, workers included), and
// the allowlist policy may contain no over-broad source.
import type { CrawlArtifact } from '@csp/shared/csp/artifact';
import { generatePolicy } from '@csp/shared/csp/generate';
import { serializePolicy } from '@csp/shared/csp/serialize';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlArtifact, runCrawl } from './crawl';
import { EXPECTED_MARKS, SITEMAP_ONLY_PAGES } from './fixtures/content';
import { loadUnderPolicy } from './fixtures/enforce';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';
import { verifyPolicy } from './verify';

let sites: FixtureSites;
let artifact: CrawlArtifact;
let paths: string[];

beforeAll(async () => {
  sites = await startFixtureSites();
  const { state, done } = await runCrawl(
    {
      url: `${sites.origins.main}/`,
      urlList: [`${sites.origins.main}/only-in-list`],
      maxPages: 50,
      crawlDelay: 0,
    },
    null,
    { deadline: Date.now() + 120_000, allowPrivateTargets: true },
  );
  expect(done).toBe(true);
  artifact = crawlArtifact(state);
  paths = [...new Set(artifact.pages.map((p) => new URL(p.finalUrl).pathname))].sort();
}, 120_000);

afterAll(async () => {
  await sites?.close();
});

/** Submits the forms of /forms under the enforced policy: form-action is only checked on submission. */
async function submitForms(path: string, page: Page, fixture: FixtureSites): Promise<string[]> {
  if (path !== '/forms') return [];
  const problems: string[] = [];
  const before = fixture.requests.length;
  await Promise.all([
    page.waitForNavigation({ timeout: 5_000 }).catch(() => problems.push('form #post did not navigate')),
    page.evaluate("document.getElementById('post').submit()"),
  ]);
  if (
    !fixture.requests
      .slice(before)
      .some((r) => r.origin === 'api' && r.method === 'POST' && r.path === '/submit')
  ) {
    problems.push('form #post never reached its action');
  }
  await page.goto(`${fixture.origins.main}/forms`, { waitUntil: 'load' });
  const mark = fixture.requests.length;
  await Promise.all([
    page
      .waitForNavigation({ timeout: 5_000 })
      .catch(() => problems.push('formaction button did not navigate')),
    page.click('#altbutton'),
  ]);
  if (!fixture.requests.slice(mark).some((r) => r.origin === 'assets' && r.path.startsWith('/alt-submit'))) {
    problems.push('formaction button never reached its target');
  }
  return problems;
}

describe('acid test: crawl → generate → enforce', () => {
  it('crawls every fixture page, sitemap- and list-only pages included', () => {
    expect(paths).toEqual(Object.keys(EXPECTED_MARKS).sort());
    for (const page of SITEMAP_ONLY_PAGES) expect(paths).toContain(page);
    const main = sites.origins.main;
    expect(artifact.errors).toEqual(
      expect.arrayContaining([`${main}/missing: HTTP 404`, `${main}/server-error: HTTP 500`]),
    );
  });

  it('self-verification: the generated policy, report-only, raises no violation; a broken one does', async () => {
    const { rules } = generatePolicy(artifact, { mode: 'allowlist', reportUri: '/csp-reports' });
    const pages = artifact.pages.map((p) => p.finalUrl);
    const common = { pages, siteOrigin: artifact.origin, allowPrivateTargets: true };
    const good = await verifyPolicy({ ...common, policy: serializePolicy(rules) });
    expect(good).toEqual({ pagesChecked: 10, violations: 0, samples: [] });
    const broken = await verifyPolicy({
      ...common,
      pages: [`${sites.origins.main}/scripts`],
      policy: serializePolicy({ ...rules, 'script-src': ["'self'"] }),
    });
    expect(broken.pagesChecked).toBe(1);
    expect(broken.violations).toBeGreaterThan(0);
    expect(broken.samples).toContain(
      `script-src-elem ${sites.origins.cdn}/lib.js on ${sites.origins.main}/scripts`,
    );
    // The verification never posts reports anywhere (report-uri is left out while trying the policy).
    expect(sites.requests.some((r) => r.path.startsWith('/csp-reports'))).toBe(false);
  }, 60_000);

  it('allowlist mode: the policy has no over-broad source', () => {
    const { rules } = generatePolicy(artifact, { mode: 'allowlist' });
    const all = Object.entries(rules).flatMap(([d, sources]) => sources.map((s) => [d, s] as const));
    for (const [directive, source] of all) {
      expect(
        ['*', 'http:', 'https:', 'ws:', 'wss:', "'unsafe-inline'"],
        `${directive} ${source}`,
      ).not.toContain(source);
      expect(source.includes('*'), `${directive} ${source}`).toBe(false);
      if (source === 'data:') expect(['img-src', 'font-src', 'media-src'], directive).toContain(directive);
    }
    // What only workers, service workers and shared workers requested made it in (not left to chance).
    const connect = rules['connect-src'] ?? [];
    expect(connect).toContain(sites.origins.cdn);
    expect(connect).toContain(sites.origins.assets);
    expect(connect).toContain(sites.origins.frames);
    expect(rules['worker-src']).toContain('blob:');
  });

  it('allowlist mode, enforced: every page still works and nothing is blocked', async () => {
    const { rules } = generatePolicy(artifact, { mode: 'allowlist' });
    const results = await loadUnderPolicy(sites, paths, serializePolicy(rules), { after: submitForms });
    const broken = results.filter((r) => r.missing.length > 0 || r.violations.length > 0);
    expect(broken, `policy: ${serializePolicy(rules)}`).toEqual([]);
  }, 120_000);

  it('strict mode, enforced: every page still works (objects aside: strict forbids them)', async () => {
    const nonce = 'acidTestNonce0123456789abcdef';
    const { rules } = generatePolicy(artifact, { mode: 'strict', nonce });
    expect(rules['script-src']).toContain("'strict-dynamic'");
    const results = await loadUnderPolicy(sites, paths, serializePolicy(rules), { nonce });
    const broken = results
      .map((r) =>
        r.path === '/objects'
          ? {
              ...r,
              missing: r.missing.filter((m) => m !== 'object'),
              violations: r.violations.filter((v) => !v.includes('object-src')),
            }
          : r,
      )
      .filter((r) => r.missing.length > 0 || r.violations.length > 0);
    expect(broken, `policy: ${serializePolicy(rules)}`).toEqual([]);
  }, 120_000);

  it('the check can fail: a policy missing one observed origin is caught', async () => {
    const { rules } = generatePolicy(artifact, { mode: 'allowlist' });
    const withoutCdn = {
      ...rules,
      'script-src': (rules['script-src'] ?? []).filter((s) => s !== sites.origins.cdn),
    };
    const [result] = await loadUnderPolicy(sites, ['/scripts'], serializePolicy(withoutCdn), {
      markTimeoutMs: 1_500,
    });
    expect(result!.missing).toContain('cdn-lib');
    expect(result!.violations.some((v) => v.includes(`${sites.origins.cdn}/lib.js`))).toBe(true);
  }, 60_000);
});
