// Subresource Integrity in the web app, in Chromium: the Scripts screen says per external script "SRI ready"
// with its tag to copy (the clipboard holds exactly the tag) or "No SRI" with the reason; the analysis page
// counts the files ready for SRI and downloads the tags per page template as the server names the file.
// With SHOTS_DIR set it saves both at 1440 and 390 px there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalysis } from '@csp/functions/src/store/analyses';
import { claimAnalysis, completeAnalysis } from '@csp/functions/src/store/analysis-runs';
import { updateInventory } from '@csp/functions/src/watch/inventory-update';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import type { SubresourceIntegrity } from '@csp/shared/schemas/subresource-integrity';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { clickText, clickUncovered, waitForDownload, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ downloads: true, clipboard: true });

const SITE = 'https://shop.example';
const LIB = 'https://cdn.example/npm/lib@1.2.3/dist/lib.min.js';
const TAG = 'https://tags.example/loader.js';
const DIGEST = 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';

async function screenshots(page: Page, name: string, selector: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewport({ width, height: 900 });
    // An achievement card that came up (the first domain) is continued first.
    const card = await page
      .waitForSelector('[data-testid="achievement-continue"]', { timeout: 1500 })
      .catch(() => null);
    if (card) {
      await clickUncovered(page, card);
      await page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'));
    }
    await new Promise((r) => setTimeout(r, 300));
    const el = await page.$(selector);
    await (el ?? page).screenshot({ path: join(dir, `${name}-${width}.png`) });
  }
  await page.setViewport({ width: 1280, height: 900 });
}

const script = (url: string, digest: string, cors: boolean) => ({
  key: url,
  kind: 'external' as const,
  url,
  digest,
  sha256: 'sha256-x',
  cors,
  party: 'third' as const,
  initiator: null,
  pages: [`${SITE}/`],
  pageCount: 1,
});

describe('Subresource Integrity in the app', () => {
  it('the Scripts screen copies the tag of a script ready for SRI and says why another is not', async () => {
    const domain = await (await t.client.post('/api/domains', { name: 'Shop', url: `${SITE}/` })).json();
    await updateInventory(t.server.deps.db, {
      domainId: domain.id,
      snapshot: {
        analysisId: 'run-1',
        completedAt: new Date().toISOString(),
        scripts: [script(LIB, DIGEST, true), script(TAG, 'sha384-B', true)],
      },
    });
    await t.page.setViewport({ width: 1280, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="sri-cell"]');
    const cells = await t.page.$$eval('[data-testid="script-row"]', (rows) =>
      rows.map((r) => ({
        name: r.querySelector('p')?.textContent,
        sri: (r.querySelector('[data-testid="sri-cell"]') as HTMLElement | null)?.innerText.replace(
          /\s+/g,
          ' ',
        ),
      })),
    );
    expect(cells).toEqual(
      expect.arrayContaining([
        { name: LIB, sri: 'SRI ready Copy tag' },
        {
          name: TAG,
          sri: 'No SRI The URL has no version: the vendor can change the file at this address and SRI would then block it',
        },
      ]),
    );
    await screenshots(t.page, 'sri-scripts', '[data-testid="scripts-panel"]');
    await clickText(t.page, 'button', 'Copy tag');
    await waitForToast(t.page, 'Script tag copied');
    expect(await t.page.evaluate(() => navigator.clipboard.readText())).toBe(
      `<script src="${LIB}" integrity="${DIGEST}" crossorigin="anonymous"></script>`,
    );
  });

  it('the analysis page counts the files ready for SRI and downloads the tags per template', async () => {
    const proposal: SubresourceIntegrity = {
      resources: [
        {
          kind: 'script',
          url: LIB,
          sha384: DIGEST,
          ready: true,
          crossorigin: 'anonymous',
          reasons: [],
          pageCount: 2,
        },
        {
          kind: 'stylesheet',
          url: `${SITE}/assets/site.0e5c7a9f1b.css`,
          sha384: 'sha384-C',
          ready: true,
          crossorigin: null,
          reasons: [],
          pageCount: 2,
        },
        {
          kind: 'script',
          url: TAG,
          sha384: 'sha384-B',
          ready: false,
          crossorigin: 'anonymous',
          reasons: ['no-version', 'no-cors'],
          pageCount: 1,
        },
      ],
      resourceCount: 3,
      templates: [
        { page: `${SITE}/`, pageCount: 2, resources: [0, 1] },
        { page: `${SITE}/checkout`, pageCount: 1, resources: [0, 2] },
      ],
      templateCount: 2,
    };
    const db = t.server.deps.db;
    const analysis = await createAnalysis(db, {
      userId: t.user.id,
      domainId: null,
      url: `${SITE}/`,
      crawlRequest: crawlRequestSchema.parse({ url: `${SITE}/` }),
    });
    expect(await claimAnalysis(db, analysis.id, 'run-sri', 3_600_000)).not.toBeNull();
    expect(
      await completeAnalysis(db, analysis.id, 'run-sri', {
        cspRules: { 'default-src': ["'self'"], 'script-src': ["'self'", 'https://cdn.example'] },
        resourceStats: { totalResources: 3, uniqueDomains: 3, securityIssues: 0 },
        errors: [],
        totalPages: 3,
        subresourceIntegrity: proposal,
      }),
    ).toBe(true);

    await t.page.goto(`${t.server.url}/analysis/${analysis.id}`, { waitUntil: 'load' });
    const card = await t.page.waitForSelector('[data-testid="integrity-card"]', { timeout: 15_000 });
    const text = (await card!.evaluate((el) => (el as HTMLElement).innerText)).replace(/\s+/g, ' ');
    expect(text).toContain('2 of 3 external files ready for SRI.');
    expect(text).toContain('1: The URL has no version');
    await screenshots(t.page, 'sri-analysis', '[data-testid="integrity-card"]');

    await clickText(t.page, 'button', 'Download tags per template');
    const file = await waitForDownload(t.downloads, `integrity-shop.example-${analysis.id}.html`);
    expect(file).toContain(
      `<!-- Template 1: ${SITE}/ and 1 more page -->\n<script src="${LIB}" integrity="${DIGEST}" crossorigin="anonymous"></script>\n` +
        `<link rel="stylesheet" href="${SITE}/assets/site.0e5c7a9f1b.css" integrity="sha384-C">`,
    );
    expect(file).toContain(`<!-- No SRI for ${TAG}: The URL has no version`);
  });
});
