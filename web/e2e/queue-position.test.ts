// A user's waiting analyses show their place in the queue: on the dashboard's Recent Activity and on the
// analysis screen, at desktop and phone widths. Started through the API; the server's crawl handler does
// nothing, so they stay waiting. Screenshots go to SCREENSHOT_DIR when it is set (for looking at them).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { dismissAchievementOverlay, visibleText, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844, isMobile: true, hasTouch: true },
] as const;

async function shot(name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await t.page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

it('shows each waiting analysis as queued with its position, on the dashboard and the analysis screen', async () => {
  const ids: string[] = [];
  for (const host of ['first', 'second', 'third']) {
    const res = await t.client.post('/api/csp/analyze', { url: `https://${host}.example.com/`, maxPages: 5 });
    expect(res.status).toBe(201);
    ids.push((await res.json()).analysisId);
  }
  const third = ids[2]!;
  try {
    for (const viewport of VIEWPORTS) {
      await t.page.setViewport(viewport);
      await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
      await dismissAchievementOverlay(t.page);
      await t.page.waitForSelector('[data-testid="queue-position"]');
      const places = await t.page.$$eval('[data-testid="queue-position"]', (els) =>
        els.map((el) => (el as HTMLElement).innerText),
      );
      // Newest first; the oldest (position 1, about to start) says nothing of a queue.
      expect(places).toEqual(['Queued — position 3', 'Queued — position 2']);
      const overflow = await t.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(`queue-dashboard-${viewport.name}`);

      await t.page.goto(`${t.server.url}/analysis/${third}`, { waitUntil: 'load' });
      await t.page.waitForSelector('[data-testid="analysis-progress"]');
      const status = await t.page.$eval(
        '[data-testid="progress-status"]',
        (el) => (el as HTMLElement).innerText,
      );
      expect(status).toBe('Queued — position 3: 2 of yours start first (2 run at once)');
      // No crawl stage has started while it waits.
      expect(await visibleText(t.page)).toContain('Waiting for a free slot...');
      expect(await t.page.$$('[data-testid="analysis-progress"] [aria-current="step"]')).toHaveLength(0);
      await shot(`queue-analysis-${viewport.name}`);
    }
  } finally {
    await t.page.setViewport({ width: 1280, height: 800 });
  }
  // The API answers the same places.
  const one = await (await t.client.get(`/api/csp/analyze/${ids[1]}`)).json();
  expect(one.analysis.queuePosition).toBe(2);
}, 180_000);

it('says why a start is refused once 20 analyses wait', async () => {
  const domain = await (
    await t.client.post('/api/domains', { name: 'Busy', url: 'https://busy.example.com', isActive: true })
  ).json();
  // The first test left 3 waiting; 17 more reach the limit.
  for (let i = 0; i < 17; i++) {
    expect(
      (await t.client.post('/api/csp/analyze', { url: 'https://busy.example.com/', maxPages: 1 })).status,
    ).toBe(201);
  }
  t.guard.allowFailedRequest('/api/csp-analyses', 429);
  await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
  const quickStart = await t.page.waitForSelector(
    'xpath/.//button[normalize-space()="Quick Start Analysis"]',
  );
  await quickStart!.click();
  const toast = await waitForToast(t.page, 'Error');
  expect(toast.text).toContain('You already have 20 analyses waiting; wait for some to finish');
  await shot('queue-refused-desktop');
}, 120_000);
