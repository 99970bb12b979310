// The domain screen's first view, without waiting: opened by its address (a full page load, as from an
// alert's link), the domain and its analyses are both requested while the screen's code loads (the domain
// before the screen's modules, which would otherwise take the browser's connections first), so a slow
// answer for the domain does not also hold the analyses back (one round trip before the screen, not two in
// a row); the domain is asked for beside the current user, not after it; and the summary does not wait for
// the code of the panels below it (most of the screen's code), nor does one panel wait for another's. Answers
// and a panel's module are held here for a while: the rest goes on meanwhile.
import { setTimeout as sleep } from 'node:timers/promises';
import type { HTTPRequest } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { markUnlocksSeen } from './accounts';
import { describeTimings, intercepting, requestTimings } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const HOLD_MS = 1_500;

async function createShop(): Promise<{ id: string }> {
  return (await t.client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com' })).json();
}

/** Opens the domain screen by its address and waits for its summary's heading. */
async function openShop(id: string, waitUntil: 'load' | 'networkidle0' = 'load'): Promise<void> {
  await t.page.goto(`${t.server.url}/domains/${id}`, { waitUntil });
  await t.page.waitForSelector('xpath/.//h1[normalize-space()="Shop"]', { timeout: 20_000 });
}

/**
 * Opens the domain screen with the first request for `held` held for HOLD_MS: what was seen, in order
 * ('held asked', 'held released', 'asked' for each request for `asked`).
 */
async function openHolding(id: string, held: string, asked: string): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (request: HTTPRequest) => {
    const path = new URL(request.url()).pathname;
    if (path === held && !seen.includes('held asked')) {
      seen.push('held asked');
      setTimeout(() => {
        seen.push('held released');
        void request.continue();
      }, HOLD_MS);
      return;
    }
    if (path === asked) seen.push('asked');
    void request.continue();
  };
  await intercepting(t.page, onRequest, () => openShop(id));
  return seen;
}

describe('the domain screen', () => {
  it('asks for the domain and its analyses side by side', async () => {
    const domain = await createShop();
    const domainPath = `/api/domains/${domain.id}`;
    const seen = await openHolding(domain.id, domainPath, `${domainPath}/analyses`);
    expect(seen.indexOf('asked')).toBeGreaterThan(-1);
    expect(seen.indexOf('asked')).toBeLessThan(seen.indexOf('held released'));
  });

  it('asks for the domain beside the current user, not after it', async () => {
    const domain = await createShop();
    const seen = await openHolding(domain.id, '/api/user', `/api/domains/${domain.id}`);
    expect(seen.indexOf('asked')).toBeGreaterThan(-1);
    expect(seen.indexOf('asked')).toBeLessThan(seen.indexOf('held released'));
  });

  it("asks for the domain before the screen's modules, which would take the connections first", async () => {
    const domain = await createShop();
    // The page's own record of when it asked for each file (Resource Timing): the order it made the calls
    // in, which is the order they reach the connections; the order the harness hears of requests is not.
    await t.page.setCacheEnabled(false);
    try {
      await openShop(domain.id);
    } finally {
      await t.page.setCacheEnabled(true);
    }
    const asked = await requestTimings(t.page);
    const shown = describeTimings(asked);
    const read = asked.find((a) => a.path === `/api/domains/${domain.id}`);
    // Every module after the app's own script and style: the screen's and those it shares with the import
    // of the analyses' read.
    const modules = asked.filter((a) => a.path.startsWith('/assets/') && !/^\/assets\/index-/.test(a.path));
    expect(read, shown).toBeDefined();
    expect(
      modules.some((a) => /^\/assets\/domain-detail-[^/]*\.js$/.test(a.path)),
      shown,
    ).toBe(true);
    for (const module of modules) expect(read!.at, shown).toBeLessThan(module.at);
  });

  it("asks for the unlocks (the achievement overlay's read) only once the screen's reads have answered", async () => {
    const domain = await createShop();
    const domainPath = `/api/domains/${domain.id}`;
    // The domain's read held: the overlay's read must not take a connection meanwhile.
    const seen = await openHolding(domain.id, domainPath, '/api/achievements');
    await t.page.waitForFunction(
      () => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/achievements')),
      { timeout: 15_000 },
    );
    const asked = await requestTimings(t.page);
    const shown = describeTimings(asked);
    const unlocks = asked.find((a) => a.path === '/api/achievements');
    const reads = asked.filter((a) => a.path === domainPath || a.path === `${domainPath}/analyses`);
    expect(unlocks, shown).toBeDefined();
    expect(reads, shown).toHaveLength(2);
    for (const read of reads) expect(unlocks!.at, shown).toBeGreaterThanOrEqual(read.end);
    expect(seen.indexOf('asked')).toBeGreaterThan(seen.indexOf('held released'));
  });

  it('asks who is signed in once: the screen mounting right after the answer does not ask again', async () => {
    const domain = await createShop();
    const lookups: string[] = [];
    const onRequest = (request: HTTPRequest) => {
      if (new URL(request.url()).pathname === '/api/user') lookups.push(request.url());
      void request.continue();
    };
    await intercepting(t.page, onRequest, () => openShop(domain.id, 'networkidle0'));
    expect(lookups).toHaveLength(1);
  });

  it("shows its summary and the other panels while the rules generator's module is still loading", async () => {
    const domain = await createShop();
    let hold: (request: HTTPRequest) => void = () => {};
    const held = new Promise<HTTPRequest>((resolve) => {
      hold = resolve;
    });
    const onRequest = (request: HTTPRequest) => {
      if (/\/assets\/rules-generator-panel-[\w-]+\.js$/.test(new URL(request.url()).pathname)) hold(request);
      else void request.continue();
    };
    // A module the page ran before (the first test) could come from the renderer's memory cache, unasked.
    const cdp = await t.page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    await intercepting(t.page, onRequest, async () => {
      // The summary: the domain's name and the card that starts an analysis.
      await openShop(domain.id);
      await t.page.waitForSelector('xpath/.//*[normalize-space()="Run an Analysis"]', { timeout: 10_000 });
      const generator = await Promise.race([held, sleep(10_000).then(() => null)]);
      expect(generator, "the rules generator's module was asked for").not.toBeNull();
      // The panels below it come meanwhile; the generator's place holds a placeholder.
      await t.page.waitForSelector('[data-testid="reports-panel"]', { timeout: 20_000 });
      expect(await t.page.$('[data-testid="rules-generator"]')).toBeNull();
      void generator!.continue();
      await t.page.waitForSelector('[data-testid="rules-generator"]', { timeout: 20_000 });
    });
  });

  it('shows its panels in a tab that makes no frames (in the background, or its compositor starved)', async () => {
    const domain = await createShop();
    // A page whose browser paints no frame: animation-frame callbacks never run, as in a background tab.
    const page = await t.browser.newPage();
    try {
      await page.evaluateOnNewDocument(() => {
        window.requestAnimationFrame = () => 0;
      });
      await page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
      await page.waitForSelector('xpath/.//h1[normalize-space()="Shop"]', { timeout: 20_000 });
      await page.waitForSelector('[data-testid="reports-panel"]', { timeout: 10_000 });
      await page.waitForSelector('[data-testid="rules-generator"]', { timeout: 10_000 });
    } finally {
      await page.close();
    }
  });
});

describe("a link to one of the domain screen's panels", () => {
  it("opens the screen at that panel (an alert's link to the scripts), though the panel mounts after the summary", async () => {
    const domain = await createShop();
    // No achievement card over the screen (it would hold the page still): the user has seen their unlocks.
    await markUnlocksSeen(t.client);
    await t.page.setViewport({ width: 1440, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}#scripts`, { waitUntil: 'load' });
    await t.page.waitForSelector('#scripts', { timeout: 20_000 });
    // In view once it is there and what is above it has settled: its top in the upper half of the window,
    // below the sticky header (not under it).
    await t.page.waitForFunction(
      () => {
        const top = document.getElementById('scripts')?.getBoundingClientRect().top ?? Number.NaN;
        const header = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
        return top >= header && top < window.innerHeight / 2;
      },
      { timeout: 10_000 },
    );
    expect(await t.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);

    // The user goes back to the top, on to the dashboard, and back: the screen is where they left it
    // (the router restores it), not at the panel again.
    await t.page.mouse.move(700, 450);
    await t.page.mouse.wheel({ deltaY: -20_000 });
    await t.page.waitForFunction(() => window.scrollY === 0);
    await t.page.click('a[href="/dashboard"]');
    await t.page.waitForFunction(() => location.pathname === '/dashboard');
    await t.page.goBack();
    await t.page.waitForSelector('#scripts', { timeout: 20_000 });
    await sleep(1_500); // the panels have mounted and settled
    expect(await t.page.evaluate(() => window.scrollY)).toBe(0);
  });

  it("renders each panel once, with its data: a panel's own loading state never shows on a page load", async () => {
    // Rendered before its data, a panel rendered again in one long task when the data came (a query's update
    // is never sliced); the panel now waits in its place (the slot's skeleton) for its module and its data.
    const domain = await createShop();
    const panels = [
      'rules-generator',
      'scripts-panel',
      'changes-panel',
      'reports-panel',
      'schedule-card',
      'alerts-panel',
    ];
    const watch = await t.page.evaluateOnNewDocument((testIds: string[]) => {
      const seen: string[] = [];
      Object.assign(window, { panelsBusy: seen });
      const inPanel = testIds.map((id) => `[data-testid="${id}"] [aria-busy="true"]`).join(', ');
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (!(node instanceof Element)) continue;
            for (const busy of [node, ...node.querySelectorAll('[aria-busy="true"]')]) {
              if (busy.matches(inPanel))
                seen.push(busy.closest('[data-testid]')?.getAttribute('data-testid') ?? '');
            }
          }
        }
      }).observe(document, { childList: true, subtree: true });
    }, panels);
    try {
      await openShop(domain.id);
      await t.page.waitForFunction(
        (testIds: string[]) =>
          testIds.every((id) => document.querySelector(`[data-testid="${id}"]`)) &&
          !document.querySelector('[data-testid="panel-loading"]'),
        { timeout: 20_000 },
        panels,
      );
      expect(await t.page.evaluate(() => (window as unknown as { panelsBusy: string[] }).panelsBusy)).toEqual(
        [],
      );
    } finally {
      await t.page.removeScriptToEvaluateOnNewDocument(watch.identifier);
    }
  });
});
