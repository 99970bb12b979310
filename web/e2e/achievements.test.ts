// The achievement overlay in the browser: unlocks earned by real actions are shown once each, oldest first,
// with the spec's texts and 20 confetti dots; Continue and the backdrop dismiss it, and it goes by itself
// after 8 s. Dismissed unlocks are marked seen on the server and not shown again.
import type { HttpClient } from '@csp/functions/src/testing/http-client';
import { sendReport, until } from '@csp/functions/src/testing/reports';
import { totpCode } from '@csp/functions/src/testing/totp-codes';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clickText, dismissAchievementOverlay, type PageGuard, visibleText } from './harness';
import { closeSignedInBrowser, type SignedInBrowser, startSignedInBrowser } from './signed-in-browser';

let server: SignedInBrowser['server'];
let browser: Browser;
let page: Page;
let guard: PageGuard;
let client: HttpClient;

beforeAll(async () => {
  ({ server, browser, page, guard, client } = await startSignedInBrowser());
});
afterAll(() => closeSignedInBrowser({ browser, server }));
afterEach(() => guard.assertClean());

const overlayTitle = () =>
  page.$eval('[data-testid="achievement-overlay"] h2', (el) => el.textContent).catch(() => null);

describe('achievement overlay', () => {
  it('shows each new unlock once: Continue, the backdrop, then by itself after 8 s', async () => {
    const domain = await (
      await client.post('/api/domains', { name: 'Site', url: 'https://site.example/' })
    ).json();
    const { secret } = await (await client.post('/api/user/2fa/setup')).json();
    await client.post('/api/user/2fa/verify', { token: totpCode(secret) });

    await page.goto(`${server.url}/dashboard`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="achievement-overlay"]');
    const text = await visibleText(page);
    for (const expected of [
      'Achievement Unlocked!',
      'First Domain',
      'Add your first website.',
      '+10 points',
      'Continue',
    ]) {
      expect(text).toContain(expected);
    }
    expect(await page.$$('[data-testid="confetti-dot"]')).toHaveLength(20);
    await page.click('[data-testid="achievement-continue"]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="achievement-overlay"] h2')?.textContent === 'Locked Down',
    );
    await page.click('[data-testid="achievement-overlay-backdrop"]', { offset: { x: 5, y: 5 } });
    await page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'));
    // Marked seen on the server (the overlay hides at once; the mark may still be on its way).
    let seen: Array<{ seen: boolean }> = [];
    for (let i = 0; i < 50 && !(seen.length > 0 && seen.every((a) => a.seen)); i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await (await client.get('/api/achievements')).json();
    }
    expect(seen.every((a) => a.seen)).toBe(true);

    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('[data-testid="stat-card"]');
    await new Promise((r) => setTimeout(r, 500));
    expect(await overlayTitle()).toBeNull();

    // A report received: the next visit shows 'Listening', which goes by itself after 8 s.
    expect((await sendReport(server.url, domain.uuid)).status).toBe(204);
    await until(
      async () => (await client.get('/api/achievements')).json(),
      (list: Array<{ type: string }>) => list.some((a) => a.type === 'first-report'),
    );
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="achievement-overlay"] h2')?.textContent === 'Listening',
    );
    const shownAt = Date.now();
    await page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'), {
      timeout: 15_000,
    });
    expect(Date.now() - shownAt).toBeGreaterThan(6500);
  });
});

describe('achievements card', () => {
  it('lists the unlocked ones newest first and the locked ones with their progress bars', async () => {
    // Two more domains: 3 of the 5 that unlock 'Five Domains'.
    for (const name of ['Two', 'Three']) {
      await client.post('/api/domains', { name, url: `https://${name.toLowerCase()}.example/` });
    }
    await page.goto(`${server.url}/dashboard`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="stat-card"]');
    await dismissAchievementOverlay(page);
    await clickText(page, 'button', 'Show Achievement Details');
    await page.waitForSelector('[data-testid="locked-achievements"]');
    const row = (type: string) =>
      page.$eval(`[data-testid="locked-achievement"][data-type="${type}"]`, (el) =>
        (el as HTMLElement).innerText.replace(/\s+/g, ' '),
      );
    expect(await row('five-domains')).toContain('3/5 (60%)');
    expect(await row('ten-analyses')).toContain('0/10 (0%)');
    expect(await row('quiet-week')).toContain('0/7 (0%)');
    // Closest first; nothing unlocked is listed as locked.
    const order = await page.$$eval('[data-testid="locked-achievement"]', (els) =>
      els.map((el) => el.getAttribute('data-type')),
    );
    expect(order[0]).toBe('five-domains');
    expect(order).not.toContain('first-domain');
    expect(
      await page.$eval('[role="progressbar"][aria-label="Portfolio progress"]', (el) =>
        el.getAttribute('aria-valuenow'),
      ),
    ).toBe('60');
  });
});
