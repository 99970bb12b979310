// The Scripts panel of the domain screen in Chromium, on an inventory folded in through the store: the
// owner filters (pending, party, changed in the last run), selects scripts and authorizes them with one
// justification, reads a script's details and history, adds a rule; a domain with no run shows the empty
// state; a team member reads the owner's inventory with no review control. With SHOTS_DIR set it saves the
// panel at 1440 and 390 px there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { registeredClient } from '@csp/functions/src/testing/api-server';
import { updateInventory } from '@csp/functions/src/watch/inventory-update';
import type { WatchedScript } from '@csp/shared/watch/snapshot';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { clickSelector, clickText, clickUncovered, fill, visibleText, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const SITE = 'https://shop.example';
const script = (url: string, digest: string, extra: Partial<WatchedScript> = {}): WatchedScript => ({
  key: url,
  kind: 'external',
  url,
  digest,
  party: 'first',
  initiator: null,
  pages: [`${SITE}/`, `${SITE}/checkout`],
  pageCount: 2,
  ...extra,
});
const APP = `${SITE}/assets/app.4f2a.js`;
const TAG = 'https://js.payments.example/v3/checkout.js';
const PIXEL = 'https://px.tracker.example/p.js';
const scripts = (tagDigest: string) => [
  script(APP, 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC'),
  script(TAG, tagDigest, { party: 'third' }),
  script(PIXEL, 'sha384-Pxl0PiXeL0aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdefghijklmnopq', {
    party: 'fourth',
    initiator: TAG,
    pages: [`${SITE}/checkout`],
    pageCount: 1,
  }),
];

async function domainWithInventory(client: typeof t.client) {
  const domain = await (await client.post('/api/domains', { name: 'Shop', url: `${SITE}/` })).json();
  await updateInventory(t.server.deps.db, {
    domainId: domain.id,
    snapshot: {
      analysisId: 'first-run',
      completedAt: '2026-11-01T06:00:00.000Z',
      scripts: scripts('sha384-TagV1TagV1TagV1TagV1TagV1TagV1TagV1TagV1TagV1TagV1TagV1TagV1TagV1'),
    },
  });
  await updateInventory(t.server.deps.db, {
    domainId: domain.id,
    snapshot: {
      analysisId: 'second-run',
      completedAt: '2026-11-08T06:00:00.000Z',
      scripts: scripts('sha384-TagV2TagV2TagV2TagV2TagV2TagV2TagV2TagV2TagV2TagV2TagV2TagV2TagV2'),
    },
  });
  return domain as { id: string };
}

const rowTexts = (page: Page) =>
  page.$$eval('[data-testid="script-row"]', (rows) =>
    rows.map(
      (r) => `${(r as HTMLElement).dataset.state} ${(r as HTMLElement).innerText.replace(/\s+/g, ' ')}`,
    ),
  );
const waitForRows = (page: Page, n: number) =>
  page.waitForFunction(
    (count: number) => document.querySelectorAll('[data-testid="script-row"]').length === count,
    { timeout: 15_000 },
    n,
  );

/** The panel at 1440 and 390 px, into SHOTS_DIR when set (the page is as tall as its content, so the sticky
 * header stays at the top and covers nothing; an achievement card that came up is continued first). */
async function screenshots(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewport({ width, height: 900 });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewport({ width, height });
    await page.evaluate(() => window.scrollTo(0, 0));
    const card = await page
      .waitForSelector('[data-testid="achievement-continue"]', { timeout: 1500 })
      .catch(() => null);
    if (card) {
      await clickUncovered(page, card);
      await page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'));
    }
    await new Promise((r) => setTimeout(r, 300));
    const panel = await page.$('[data-testid="scripts-panel"]');
    await panel!.screenshot({ path: join(dir, `${name}-${width}.png`) });
  }
  await page.setViewport({ width: 1280, height: 900 });
}

describe('the Scripts panel', () => {
  it("filters the owner's inventory and authorizes the chosen scripts with one justification", async () => {
    const domain = await domainWithInventory(t.client);
    await t.page.setViewport({ width: 1280, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="scripts-panel"]');
    await waitForRows(t.page, 3);
    const rows = await rowTexts(t.page);
    expect(rows[0]).toMatch(/^pending .*app\.4f2a\.js.*First party/);
    expect(rows[1]).toMatch(/checkout\.js.*Third party.*Changed in last run/);
    expect(rows[2]).toMatch(
      /p\.js.*Fourth party.*Loaded by: https:\/\/js\.payments\.example\/v3\/checkout\.js/,
    );
    await screenshots(t.page, 'scripts-pending');

    // Changed in the last run: only the tag whose content changed.
    await clickSelector(t.page, '[data-testid="scripts-panel"] button[role="switch"]');
    await waitForRows(t.page, 1);
    expect((await rowTexts(t.page))[0]).toContain('checkout.js');
    await clickSelector(t.page, '[data-testid="scripts-panel"] button[role="switch"]');
    await t.page.select('[data-testid="scripts-panel"] select[aria-label="Party"]', 'fourth');
    await waitForRows(t.page, 1);
    expect((await rowTexts(t.page))[0]).toContain('p.js');
    await t.page.select('[data-testid="scripts-panel"] select[aria-label="Party"]', 'all');
    await waitForRows(t.page, 3);

    // Two chosen, one justification.
    await clickSelector(t.page, `input[aria-label="Select ${APP}"]`);
    await clickSelector(t.page, `input[aria-label="Select ${TAG}"]`);
    await clickText(t.page, 'button', 'Authorize selected');
    await t.page.waitForSelector('dialog[open] textarea');
    await new Promise((r) => setTimeout(r, 250));
    await clickText(t.page, 'dialog[@open]//button', 'Authorize');
    await t.page.waitForFunction(() => document.body.innerText.includes('A justification is required'));
    await fill(t.page, 'dialog[open] textarea', 'Our bundle and the payment provider (contract 2026-14)');
    await clickText(t.page, 'dialog[@open]//button', 'Authorize');
    expect((await waitForToast(t.page, 'Success')).text).toContain('2 scripts authorized');
    await t.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="script-row"][data-state="authorized"]').length === 2,
    );

    // Pending: the one left.
    await clickText(t.page, 'label', 'Pending 1');
    await waitForRows(t.page, 1);
    expect((await rowTexts(t.page))[0]).toContain('p.js');
    await clickText(t.page, 'label', 'All');
    await waitForRows(t.page, 3);

    // The tag's details: its authorization and its history, newest first.
    const details = await t.page.waitForSelector(
      `xpath/.//li[@data-testid="script-row"][.//p[normalize-space()="${TAG}"]]//button[normalize-space()="Details"]`,
    );
    await clickUncovered(t.page, details!);
    await t.page.waitForFunction(() => document.querySelector('[data-testid="script-history"] ol li'));
    const history = await t.page.$eval('[data-testid="script-history"]', (h) => (h as HTMLElement).innerText);
    expect(history).toMatch(/Authorized[\s\S]*contract 2026-14[\s\S]*Content changed[\s\S]*First seen/);
    expect(history).toContain(`by ${t.user.username}`);
    await screenshots(t.page, 'scripts-details');

    // A rule for the tracker's scripts authorizes the last pending one.
    await clickText(t.page, 'button', 'Add rule');
    await t.page.waitForSelector('dialog[open] input');
    await new Promise((r) => setTimeout(r, 250));
    await fill(t.page, 'dialog[open] input:not([type="checkbox"])', 'https://px.tracker.example/*');
    await fill(t.page, 'dialog[open] textarea', 'Conversion pixel the marketing team needs');
    await clickText(t.page, 'dialog[@open]//button', 'Add rule');
    expect((await waitForToast(t.page, 'Rule added')).text).toContain('1 script authorized by it');
    await t.page.waitForSelector('[data-testid="script-rule"]');
    const text = await visibleText(t.page);
    expect(text).toContain('https://px.tracker.example/*');
    expect(text).toContain('Authorized 3');
  }, 120_000);

  it('shows the empty state for a domain no analysis has completed for', async () => {
    const domain = await (
      await t.client.post('/api/domains', { name: 'New', url: 'https://new.example/' })
    ).json();
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForFunction(() => document.body.innerText.includes('No scripts yet'));
    expect(await t.page.$('[data-testid="script-row"]')).toBeNull();
  }, 60_000);

  it("lets a team member read the owner's inventory and offers no review control", async () => {
    const owner = await registeredClient(t.server.url, { firstName: 'Olive' });
    const domain = await domainWithInventory(owner.client);
    const rule = await owner.client.post(`/api/domains/${domain.id}/scripts/rules`, {
      pattern: `${SITE}/assets/*`,
      justification: 'Our build output',
    });
    expect(rule.status).toBe(201);
    const team = await (
      await owner.client.post('/api/teams', { name: 'Agency', slug: 'agency-scripts' })
    ).json();
    const me = await (await t.client.get('/api/user')).json();
    const invitation = await (
      await owner.client.post(`/api/teams/${team.id}/invitations`, { email: me.email })
    ).json();
    const token = new URL(invitation.link).pathname.split('/').pop();
    expect((await t.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);

    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="read-only-domain"]');
    await waitForRows(t.page, 3);
    await t.page.waitForSelector('[data-testid="script-rule"]');
    const panel = await t.page.$eval('[data-testid="scripts-panel"]', (p) => (p as HTMLElement).innerText);
    for (const absent of ['Authorize selected', 'Add rule', 'Select all shown'])
      expect(panel).not.toContain(absent);
    expect(await t.page.$('[data-testid="scripts-panel"] input[type="checkbox"]')).toBeNull();
    expect(await t.page.$('[data-testid="script-rule"] button')).toBeNull();
    // Reading stays possible: details and history open.
    await clickText(t.page, 'button', 'Details');
    await t.page.waitForSelector('[data-testid="script-history"] ol li');
    await screenshots(t.page, 'scripts-team');
  }, 120_000);
});
