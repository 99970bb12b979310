// "Download evidence" in the Scripts panel, in Chromium: the owner chooses a period and downloads the CSV
// (with the byte-order mark spreadsheets need, the inventory row with its justification) and the JSON
// document, and a period longer than the export allows shows the server's reason in the dialog. With
// SHOTS_DIR set it saves the dialog at 1440 and 390 px there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { updateInventory } from '@csp/functions/src/watch/inventory-update';
import { parseCsv } from '@csp/shared/watch/csv-reader';
import { EVIDENCE_CSV_COLUMNS } from '@csp/shared/watch/evidence';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { clickSelector, clickText, waitForDownload } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ downloads: true });

const SITE = 'https://shop.example';
const APP = `${SITE}/assets/app.4f2a.js`;
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Sets a date input the way a date picker does (typing into one depends on the browser's locale). */
async function setDate(page: Page, label: string, value: string) {
  await page.evaluate(
    (labelText: string, v: string) => {
      const labelEl = [...document.querySelectorAll('dialog[open] label')].find(
        (l) => l.textContent?.trim() === labelText,
      ) as HTMLLabelElement;
      const input = document.getElementById(labelEl.htmlFor) as HTMLInputElement;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    label,
    value,
  );
}

async function screenshots(page: Page, name: string, selector?: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewport({ width, height: 900 });
    await new Promise((r) => setTimeout(r, 300));
    const path = join(dir, `${name}-${width}.png`);
    const el = selector ? await page.$(selector) : null;
    await (el ?? page).screenshot({ path });
  }
  await page.setViewport({ width: 1280, height: 900 });
}

describe('evidence download', () => {
  it('downloads the CSV and the JSON of a chosen period, and shows why a period is refused', async () => {
    const domain = await (await t.client.post('/api/domains', { name: 'Shop', url: `${SITE}/` })).json();
    const now = Date.now();
    await updateInventory(t.server.deps.db, {
      domainId: domain.id,
      snapshot: {
        analysisId: 'run-1',
        completedAt: new Date(now - 10 * DAY).toISOString(),
        scripts: [
          {
            key: APP,
            kind: 'external',
            url: APP,
            digest: 'sha384-A',
            party: 'first',
            initiator: null,
            pages: [`${SITE}/`],
            pageCount: 1,
          },
        ],
      },
    });
    const ok = await t.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
      keys: [APP],
      justification: 'Storefront bundle',
    });
    expect(ok.status).toBe(200);

    await t.page.setViewport({ width: 1280, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="script-row"]');
    await screenshots(t.page, 'evidence-panel', '[data-testid="scripts-panel"]');
    await clickText(t.page, 'button', 'Download evidence');
    await t.page.waitForSelector('dialog[open] input[type="date"]');
    const from = day(now - 30 * DAY);
    const to = day(now);
    await setDate(t.page, 'From', from);
    await screenshots(t.page, 'evidence-dialog');

    await clickSelector(t.page, 'dialog[open] button[type="submit"]');
    const csv = await waitForDownload(t.downloads, `evidence-shop-${from}-${to}.csv`);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [header, ...records] = parseCsv(csv.slice(1));
    expect(header).toEqual([...EVIDENCE_CSV_COLUMNS]);
    const rows = records.map((r) => Object.fromEntries(header!.map((c, i) => [c, r[i]])));
    expect(rows.find((r) => r.section === 'inventory')).toMatchObject({
      script: APP,
      state: 'authorized',
      justification: 'Storefront bundle',
    });
    expect(rows.filter((r) => r.section === 'authorization-history').map((r) => r.event)).toEqual([
      'seen',
      'authorized',
    ]);
    await t.page.waitForFunction(() => !document.querySelector('dialog[open]'));

    await clickText(t.page, 'button', 'Download evidence');
    await clickText(t.page, 'dialog//label', 'JSON');
    await clickSelector(t.page, 'dialog[open] button[type="submit"]');
    const doc = JSON.parse(await waitForDownload(t.downloads, `evidence-shop-${from}-${to}.json`));
    expect(doc).toMatchObject({ format: 'csp-generator-evidence', version: 1, period: { to } });
    expect(doc.inventory[0].authorization.justification).toBe('Storefront bundle');
    await t.page.waitForFunction(() => !document.querySelector('dialog[open]'));

    // Refused by the server (the 400 the browser logs is expected).
    t.guard.allowFailedRequest(`/api/domains/${domain.id}/evidence`, 400);
    await clickText(t.page, 'button', 'Download evidence');
    await setDate(t.page, 'From', day(now - 400 * DAY));
    await clickSelector(t.page, 'dialog[open] button[type="submit"]');
    await t.page.waitForFunction(
      () =>
        document.querySelector('dialog[open]')?.textContent?.includes('an export covers 366 days at most'),
      { timeout: 15_000 },
    );
  });
});
