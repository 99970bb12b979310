// The frame around every signed-in screen, as a new user meets it: the user menu (Settings, Admin Panel for
// admins, Logout) in the header of each screen, the 404 page said for people, no sideways scrolling on a
// 360 px phone, and an achievement overlay that never takes a click meant for the page and shows an unlock
// on the screen where it was earned.
import { updateUserFields } from '@csp/functions/src/store/users';
import { sendReport, until } from '@csp/functions/src/testing/reports';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { markUnlocksSeen } from './accounts';
import { clickText, visibleText, waitForPath, waitForToast } from './harness';
import { seedCompleted, seedRunning } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const LONG_URL =
  'https://a-rather-long-subdomain-name.of-an-example-company-website.example/with/a/deep/path/and-a-very-long-file-name-that-never-ends.html';

/** What the user menu of the screen on show lists, after opening it. */
async function openUserMenu(page: Page): Promise<string[]> {
  await page.waitForSelector('[data-testid="user-menu"]', { visible: true });
  await page.click('[data-testid="user-menu"]');
  await page.waitForSelector('[role="menu"]:popover-open [role="menuitem"]');
  return page.$$eval('[role="menu"]:popover-open [role="menuitem"]', (items) =>
    items.map((i) => (i as HTMLElement).innerText.trim()),
  );
}

/**
 * Waits until the screen has loaded what it shows: no request in flight for a moment (a screen that polls,
 * as a running analysis does, may never be quiet that long: then what it shows after a few seconds).
 */
async function settle(page: Page) {
  await page.waitForNetworkIdle({ idleTime: 500, timeout: 8000 }).catch(() => {});
}

let domainId = '';
let domainUuid = '';
let analysisId = '';
let standaloneId = '';
let runningId = '';

beforeAll(async () => {
  const domain = await (await t.client.post('/api/domains', { name: 'Long names', url: LONG_URL })).json();
  domainId = domain.id;
  domainUuid = domain.uuid;
  analysisId = await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId, url: LONG_URL });
  standaloneId = await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: null, url: LONG_URL });
  runningId = await seedRunning(
    t.server.deps.db,
    { userId: t.user.id, domainId: null, url: LONG_URL },
    { progress: 40, currentPage: `${LONG_URL}?page=2`, totalPages: 12 },
  );
  // A report with a long blocked URL, for the domain's reports panel.
  expect(
    (
      await sendReport(t.server.url, domainUuid, {
        'document-uri': LONG_URL,
        'violated-directive': 'img-src',
        'blocked-uri': `${LONG_URL}?and=a-query-string-that-goes-on-and-on-and-on`,
      })
    ).status,
  ).toBe(204);
  await until(
    async () => (await t.client.get(`/api/domains/${domainId}/uri-reports`)).json(),
    (r: { reports?: unknown[] }) => (r.reports?.length ?? 0) > 0,
  );
  await markUnlocksSeen(t.client);
}, 120_000);

const userScreens = () => [
  { name: 'dashboard', path: '/dashboard' },
  { name: 'domain', path: `/domains/${domainId}` },
  { name: 'analysis', path: `/analysis/${analysisId}` },
  { name: 'settings', path: '/settings' },
  { name: 'analyzer', path: '/csp-generator' },
  { name: 'new domain', path: '/domains/new' },
  { name: '404', path: '/no/such/page' },
];

describe('the 404 page', () => {
  it('explains in plain words, keeps the header, and leads back to the dashboard', async () => {
    await t.page.goto(`${t.server.url}/settings/nowhere`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="not-found"]');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('404 Page Not Found');
    const text = await visibleText(t.page);
    expect(text).toContain('There is no page at /settings/nowhere');
    expect(text).toContain('The link may be mistyped, or the page may have moved or been removed.');
    expect(text).not.toMatch(/router|route/i);
    expect(await t.page.$('header [data-testid="user-menu"]')).not.toBeNull();
    await clickText(t.page, 'a', 'Back to Dashboard');
    await waitForPath(t.page, '/dashboard');
  });
});

describe('on a 360 px phone', () => {
  it('no screen scrolls sideways', async () => {
    await updateUserFields(t.server.deps.db, t.user.id, { role: 'admin' });
    const domain = await (await t.client.post('/api/domains', { name: 'Phone', url: LONG_URL })).json();
    await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: domain.id, url: LONG_URL });
    await markUnlocksSeen(t.client);
    await t.page.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true });
    try {
      const screens = [
        ...userScreens(),
        { name: 'domain with data', path: `/domains/${domainId}` },
        { name: 'running analysis', path: `/analysis/${runningId}` },
        { name: 'analyzer result', path: `/csp-generator?analysis=${standaloneId}` },
        { name: 'admin', path: '/admin' },
      ];
      const overflowing: string[] = [];
      for (const screen of screens) {
        await t.page.goto(`${t.server.url}${screen.path}`, { waitUntil: 'load' });
        await t.page.waitForSelector('h1');
        await settle(t.page);
        const { scrollWidth, innerWidth, culprits } = await t.page.evaluate(() => {
          const width = window.innerWidth;
          // The widest elements past the right edge, to say what overflows.
          const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((el) => el.getBoundingClientRect().right > width + 0.5)
            .slice(0, 3)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 120));
          return {
            scrollWidth: document.scrollingElement!.scrollWidth,
            innerWidth: width,
            culprits,
          };
        });
        if (scrollWidth > innerWidth) {
          overflowing.push(`${screen.name}: ${scrollWidth} > ${innerWidth} (${culprits.join(' | ')})`);
        }
        // Nothing sticks out of a headline tile (the Achievements tile's icon did).
        const outOfTiles = await t.page.$$eval(
          '[data-testid="stat-card"], [data-testid="stat-tile"]',
          (tiles) =>
            tiles.flatMap((tile) => {
              const edge = tile.getBoundingClientRect().right;
              return [...tile.querySelectorAll('*')]
                .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
                .map(() => tile.textContent?.slice(0, 30) ?? '');
            }),
        );
        if (outOfTiles.length > 0)
          overflowing.push(`${screen.name}: out of tiles: ${outOfTiles.join(' | ')}`);
      }
      // The rules generator's deployment mode stays on one row.
      await t.page.goto(`${t.server.url}/domains/${domainId}`, { waitUntil: 'load' });
      await t.page.waitForSelector('[data-testid="deployment-options"] fieldset label');
      const rows = await t.page.$eval('[data-testid="deployment-options"] fieldset', (f) => [
        ...new Set([...f.querySelectorAll('label')].map((l) => Math.round(l.getBoundingClientRect().top))),
      ]);
      expect(rows).toHaveLength(1);
      expect(overflowing).toEqual([]);
    } finally {
      await t.page.setViewport({ width: 1280, height: 800 });
      await updateUserFields(t.server.deps.db, t.user.id, { role: 'user' });
    }
  }, 180_000);
});

describe('the user menu', () => {
  it('is in the header of every signed-in screen, with Settings and Logout', async () => {
    for (const screen of userScreens()) {
      await t.page.goto(`${t.server.url}${screen.path}`, { waitUntil: 'load' });
      const items = await openUserMenu(t.page);
      expect(items, screen.name).toEqual(['Dashboard', 'Settings', 'Logout']);
      await t.page.keyboard.press('Escape');
      await t.page.waitForSelector('[role="menu"]:popover-open', { hidden: true });
    }
  }, 120_000);

  it('goes where its items say, Admin Panel for an admin, and Logout signs out', async () => {
    await t.page.goto(`${t.server.url}/domains/${domainId}`, { waitUntil: 'load' });
    await openUserMenu(t.page);
    await t.page.click('[data-testid="user-menu-settings"]');
    await waitForPath(t.page, '/settings');

    await t.page.goto(`${t.server.url}/no/such/page`, { waitUntil: 'load' });
    await openUserMenu(t.page);
    await t.page.click('[data-testid="user-menu-dashboard"]');
    await waitForPath(t.page, '/dashboard');

    await updateUserFields(t.server.deps.db, t.user.id, { role: 'admin' });
    for (const path of [`/analysis/${analysisId}`, '/admin', '/no/such/page']) {
      await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'load' });
      expect(await openUserMenu(t.page), path).toEqual(['Dashboard', 'Settings', 'Admin Panel', 'Logout']);
      await t.page.keyboard.press('Escape');
    }
    await t.page.goto(`${t.server.url}/analysis/${analysisId}`, { waitUntil: 'load' });
    await openUserMenu(t.page);
    await t.page.click('[data-testid="user-menu-admin"]');
    await waitForPath(t.page, '/admin');
    await t.page.waitForSelector('[data-testid="admin-users"]');

    await t.page.goto(`${t.server.url}/settings`, { waitUntil: 'load' });
    await openUserMenu(t.page);
    await t.page.click('[data-testid="user-menu-logout"]');
    await waitForPath(t.page, '/auth');
    // The session the browser shares with this client is gone on the server.
    expect((await t.client.get('/api/user')).status).toBe(401);
    await t.signInAgain();
  }, 120_000);
});

describe('the achievement overlay', () => {
  it('never takes a click meant for the page, and shows an unlock where it was earned', async () => {
    // A fresh user whose first domain is an unlock not shown yet.
    await t.signInAgain();
    await t.client.post('/api/domains', { name: 'First', url: 'https://first.example/' });

    // The first click once the dashboard shows reaches the page.
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="stat-card"]');
    await clickText(t.page, 'main//a', 'Settings');
    await waitForPath(t.page, '/settings');

    // Not while a field is being filled in (the pointer may be on its way to the form's button)...
    await t.page.waitForSelector('#settings-first-name');
    await t.page.focus('#settings-first-name');
    await settle(t.page);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await t.page.$('[data-testid="achievement-overlay"]')).toBeNull();
    await t.page.$eval('#settings-first-name', (el) => (el as HTMLInputElement).blur());

    // ...but once the screen in use is at rest, the unlock comes up on it; a click on the page beside its
    // card reaches the page (and puts the overlay away).
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="achievement-overlay"] h2')?.textContent === 'First Domain',
      { timeout: 20_000 },
    );
    expect(new URL(t.page.url()).pathname).toBe('/settings');
    await t.page.click('header a[aria-label="CSP Generator dashboard"]');
    await waitForPath(t.page, '/dashboard');
    await t.page.waitForSelector('[data-testid="stat-card"]');
    expect(await t.page.$('[data-testid="achievement-overlay"]')).toBeNull();

    // Earned in Settings (a team created): shown in Settings, at once.
    await t.page.goto(`${t.server.url}/settings?tab=team`, { waitUntil: 'load' });
    await t.page.waitForSelector('form[aria-label="Create a Team"]');
    await t.page.type('#team-name', 'Night Shift');
    await clickText(t.page, 'button', 'Create Team');
    await waitForToast(t.page, 'Team created');
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="achievement-overlay"] h2')?.textContent === 'Team Player',
      { timeout: 20_000 },
    );
    expect(new URL(t.page.url()).pathname).toBe('/settings');
    await t.page.click('[data-testid="achievement-continue"]');
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="achievement-overlay"]'));
  }, 120_000);
});
