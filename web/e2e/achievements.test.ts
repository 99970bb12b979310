import { sendReport, until } from '@csp/functions/src/testing/reports';
import { totpCode } from '@csp/functions/src/testing/totp-codes';
import { describe, expect, it } from 'vitest';
import {
  clickText,
  describeTimings,
  dismissAchievementOverlay,
  requestTimings,
  visibleText,
} from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const overlayTitle = () =>
  t.page.$eval('[data-testid="achievement-overlay"] h2', (el) => el.textContent).catch(() => null);

describe('achievement overlay', () => {
  it('shows each new unlock once: Continue, the backdrop, then by itself after 8 s', async () => {
    const domain = await (
      await t.client.post('/api/domains', { name: 'Site', url: 'https://site.example/' })
    ).json();
    const { secret } = await (await t.client.post('/api/user/2fa/setup')).json();
    await t.client.post('/api/user/2fa/verify', { token: totpCode(secret) });

    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="achievement-overlay"]');
    const text = await visibleText(t.page);
    for (const expected of [
      'Achievement Unlocked!',
      'First Domain',
      'Add your first website.',
      '+10 points',
      'Continue',
    ]) {
      expect(text).toContain(expected);
    }
    expect(await t.page.$$('[data-testid="confetti-dot"]')).toHaveLength(20);
    await t.page.click('[data-testid="achievement-continue"]');
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="achievement-overlay"] h2')?.textContent === 'Locked Down',
    );
    await t.page.click('[data-testid="achievement-overlay-backdrop"]', { offset: { x: 5, y: 5 } });
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'));
    // Marked seen on the server (the overlay hides at once; the mark may still be on its way).
    let seen: Array<{ seen: boolean }> = [];
    for (let i = 0; i < 50 && !(seen.length > 0 && seen.every((a) => a.seen)); i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await (await t.client.get('/api/achievements')).json();
    }
    expect(seen.every((a) => a.seen)).toBe(true);

    await t.page.reload({ waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="stat-card"]');
    await new Promise((r) => setTimeout(r, 500));
    expect(await overlayTitle()).toBeNull();

    // A report received: the next visit shows 'Listening', which goes by itself after 8 s.
    expect((await sendReport(t.server.url, domain.uuid)).status).toBe(204);
    await until(
      async () => (await t.client.get('/api/achievements')).json(),
      (list: Array<{ type: string }>) => list.some((a) => a.type === 'first-report'),
    );
    await t.page.reload({ waitUntil: 'load' });
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="achievement-overlay"] h2')?.textContent === 'Listening',
    );
    const shownAt = Date.now();
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'), {
      timeout: 15_000,
    });
    expect(Date.now() - shownAt).toBeGreaterThan(6500);
  });
});

describe('achievements card', () => {
  it('lists the unlocked ones newest first and the locked ones with their progress bars', async () => {
    // Two more domains: 3 of the 5 that unlock 'Five Domains'.
    for (const name of ['Two', 'Three']) {
      await t.client.post('/api/domains', { name, url: `https://${name.toLowerCase()}.example/` });
    }
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="stat-card"]');
    await dismissAchievementOverlay(t.page);
    await clickText(t.page, 'button', 'Show Achievement Details');
    await t.page.waitForSelector('[data-testid="locked-achievements"]');
    const row = (type: string) =>
      t.page.$eval(`[data-testid="locked-achievement"][data-type="${type}"]`, (el) =>
        (el as HTMLElement).innerText.replace(/\s+/g, ' '),
      );
    expect(await row('five-domains')).toContain('3/5 (60%)');
    expect(await row('ten-analyses')).toContain('0/10 (0%)');
    expect(await row('quiet-week')).toContain('0/7 (0%)');
    // Closest first; nothing unlocked is listed as locked.
    const order = await t.page.$$eval('[data-testid="locked-achievement"]', (els) =>
      els.map((el) => el.getAttribute('data-type')),
    );
    expect(order[0]).toBe('five-domains');
    expect(order).not.toContain('first-domain');
    expect(
      await t.page.$eval('[role="progressbar"][aria-label="Portfolio progress"]', (el) =>
        el.getAttribute('aria-valuenow'),
      ),
    ).toBe('60');
  });
});

describe("the dashboard's achievements card", () => {
  it("has its progress asked for with the lists, not after the screen's own module has loaded", async () => {
    await t.page.setCacheEnabled(false);
    try {
      await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
      // Both listed: a request is listed once its answer has ended, and the read may end before the module.
      await t.page.waitForFunction(
        () => {
          const names = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);
          return (
            names.includes('/api/achievements/progress') &&
            names.some((n) => /^\/assets\/dashboard-[\w-]+\.js$/.test(n))
          );
        },
        { timeout: 15_000 },
      );
    } finally {
      await t.page.setCacheEnabled(true);
    }
    const asked = await requestTimings(t.page);
    const shown = describeTimings(asked);
    const progress = asked.find((a) => a.path === '/api/achievements/progress');
    const screen = asked.find((a) => /^\/assets\/dashboard-[\w-]+\.js$/.test(a.path));
    expect(progress, shown).toBeDefined();
    expect(screen, shown).toBeDefined();
    // Asked for by the route's loader as the app starts (beside the lists), so before the screen's module
    // has even arrived.
    expect(progress!.at, shown).toBeLessThan(screen!.end);
  });
});
