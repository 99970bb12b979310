// The analysis page's "Trusted Types readiness" card, in Chromium: the readiness in words, each sink use
// with its script and line, the start of the value and its pages, the policy names the pages created; a
// site that is ready; and an analysis from before the dry run ("Not measured"). At 390 px nothing is wider
// than the screen. With SHOTS_DIR set it saves the card's page at 1440 and 390 px there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TrustedTypesDryRun } from '@csp/shared/schemas/trusted-types';
import { describe, expect, it } from 'vitest';
import { seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const SITE = 'https://shop.example';
const standalone = () => ({ userId: t.user.id, domainId: null, url: `${SITE}/` });

const NEEDS_DEFAULT: TrustedTypesDryRun = {
  readiness: 'default-policy',
  sinkCount: 3,
  pagesChecked: 12,
  policyNames: ['app', 'dompurify'],
  sinks: [
    {
      sink: 'Element innerHTML',
      script: `${SITE}/assets/app.4f2a.js`,
      line: 3,
      column: 14,
      sample: '<b>x</b>',
      pages: [`${SITE}/`, `${SITE}/cart`, `${SITE}/products/blue-shirt`],
      pageCount: 9,
    },
    {
      sink: 'HTMLScriptElement src',
      script: 'https://cdn.vendor.example/widget/loader.js',
      line: 120,
      column: 7,
      sample: 'https://cdn.vendor.example/widget/v2/main.js?campaign=spring-sale-2026',
      pages: [`${SITE}/products/blue-shirt`],
      pageCount: 1,
    },
    {
      sink: 'eval',
      script: `${SITE}/`,
      line: 41,
      column: 1,
      sample: 'window.dataLayer.push({"event":"view"})',
      pages: [`${SITE}/`],
      pageCount: 1,
    },
  ],
};

async function open(id: string) {
  await t.page.goto(`${t.server.url}/analysis/${id}`, { waitUntil: 'load' });
  await t.page.waitForSelector('[data-testid="trusted-types"]');
}

const innerText = (selector: string) =>
  t.page.$eval(selector, (el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

async function screenshots(name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await t.page.setViewport({ width, height: 900 });
    await new Promise((r) => setTimeout(r, 300));
    const card = await t.page.$('[data-testid="trusted-types"]');
    await card?.screenshot({ path: join(dir, `${name}-${width}.png`) });
    // The card on its page, among the others.
    await t.page.screenshot({ path: join(dir, `${name}-page-${width}.png`), fullPage: true });
  }
  await t.page.setViewport({ width: 1280, height: 800 });
}

describe('Trusted Types readiness', () => {
  it('lists each sink use with its script and line, the value, the pages and the policy names', async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), { trustedTypes: NEEDS_DEFAULT });
    await open(id);
    expect(await innerText('[data-testid="trusted-types-readiness"]')).toBe('Needs a default policy');
    expect(await innerText('[data-testid="trusted-types-verdict"]')).toBe(
      '3 places in the code pass plain strings to a sink. A default policy, or fixing these lines, makes the site ready.',
    );
    const rows = await t.page.$$eval('[data-testid="trusted-types-sink"]', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.trim())),
    );
    expect(rows).toEqual([
      // The site's own script by its path; the first page named, and how many more.
      ['Element innerHTML', '/assets/app.4f2a.js:3', '<b>x</b>', '/ +8'],
      // Another site's script by its host and path.
      [
        'HTMLScriptElement src',
        'cdn.vendor.example/widget/loader.js:120',
        'https://cdn.vendor.example/widget/v2/main.js?campaign=spring-sale-2026',
        '/products/blue-shirt',
      ],
      ['eval', '/:41', 'window.dataLayer.push({"event":"view"})', '/'],
    ]);
    expect(
      await t.page.$$eval('[aria-label="Trusted Types policy names"] li', (lis) =>
        lis.map((li) => li.textContent),
      ),
    ).toEqual(['app', 'dompurify']);
    expect(await innerText('[data-testid="trusted-types"]')).toContain('report-only');
    await screenshots('trusted-types-default-policy');

    // On a phone the value moves under the sink, and nothing is wider than the screen.
    await t.page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    try {
      await open(id);
      const first = await t.page.$eval(
        '[data-testid="trusted-types-sink"] td',
        (td) => (td as HTMLElement).innerText,
      );
      expect(first).toContain('<b>x</b>');
      const overflow = await t.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // Nor is the table wider than its card (the pages move under the script).
      const tableOverflow = await t.page.$eval(
        '[data-testid="trusted-types-sinks"]',
        (table) => table.scrollWidth - (table.parentElement?.clientWidth ?? 0),
      );
      expect(tableOverflow).toBeLessThanOrEqual(0);
      expect(await innerText('[data-testid="trusted-types-sink"] td:nth-child(2)')).toBe(
        '/assets/app.4f2a.js:3 on / +8',
      );
    } finally {
      await t.page.setViewport({ width: 1280, height: 800 });
    }
  });

  it('says a site is ready, and that an older analysis was not measured', async () => {
    const ready = await seedCompleted(t.server.deps.db, standalone(), {
      trustedTypes: { readiness: 'ready', sinkCount: 0, pagesChecked: 4, sinks: [], policyNames: [] },
    });
    await open(ready);
    expect(await innerText('[data-testid="trusted-types-readiness"]')).toBe('Ready');
    expect(await innerText('[data-testid="trusted-types-verdict"]')).toContain(
      'enforcing Trusted Types would break nothing the crawl saw',
    );
    expect(await t.page.$('[data-testid="trusted-types-sinks"]')).toBeNull();
    expect(await innerText('[data-testid="trusted-types-policies"]')).toContain(
      'No page created a Trusted Types policy.',
    );
    await screenshots('trusted-types-ready');

    const older = await seedCompleted(t.server.deps.db, standalone(), { legacy: true });
    await open(older);
    expect(await t.page.$('[data-testid="trusted-types-readiness"]')).toBeNull();
    expect(await innerText('[data-testid="trusted-types"]')).toContain('Not measured for this analysis');
    await screenshots('trusted-types-not-measured');
  });
});
