// The Changes panel of the domain screen in Chromium, on watch runs stored through the store (snapshots from
// the synthetic factory, compared and judged for drift by the same functions the crawl writer uses): the
// timeline counts what changed, a run's details name a changed script's old and new digests, a header a page
// stopped serving and the drift from the saved policy; "Load more" brings the older runs; a domain with one
// analysis at most shows the empty state; the dashboard lists a domain's scripts pending review and drift. With SHOTS_DIR set it saves the panel at 1440 and 390 px there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '@csp/functions/src/store/db';
import { putWatchRun, type WatchCounts } from '@csp/functions/src/store/watch-snapshots';
import { updateInventory } from '@csp/functions/src/watch/inventory-update';
import { compareRuns } from '@csp/shared/watch/compare';
import { policyDrift } from '@csp/shared/watch/drift';
import type { RunSnapshot } from '@csp/shared/watch/snapshot';
import { syntheticRuns } from '@csp/shared/watch/snapshot-factory';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { clickUncovered, dismissAchievementOverlay, intercepting, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

/** Time-sortable analysis ids (the cursor's shape): run n of a domain. */
const runId = (n: number) => `01JDC${String(n).padStart(21, '0')}`;
/** The policy the domain's configuration saves: the sites serve a wider one (drift). */
const SAVED = { 'default-src': ["'self'"], 'script-src': ["'self'"] };

/** Stores `n` runs of the domain, each compared with the one before, as the crawl writer does. */
async function storeRuns(db: Db, domainId: string, n: number): Promise<[RunSnapshot, RunSnapshot]> {
  const [first, second] = syntheticRuns({ pages: 8, scripts: 20, policy: SAVED, churn: 0.25 });
  // The last run's first two pages stop serving X-Frame-Options.
  const dropped = second.headers.map((p, i) => {
    if (i >= 2) return p;
    const { 'x-frame-options': _, ...rest } = p.headers;
    return { ...p, headers: rest };
  });
  const last: RunSnapshot = { ...second, headers: dropped };
  let previous: RunSnapshot | null = null;
  for (let i = 0; i < n; i++) {
    const base = i === n - 1 ? last : first;
    const snapshot: RunSnapshot = {
      ...base,
      analysisId: runId(i),
      completedAt: new Date(Date.UTC(2026, 10, 1 + i, 6)).toISOString(),
    };
    const changes = previous ? compareRuns(previous, snapshot) : null;
    const drift = policyDrift(snapshot.headers, { rules: SAVED, reportOnly: false });
    const counts: WatchCounts = {
      scriptsAdded: changes?.scripts.added.length ?? 0,
      scriptsChanged: changes?.scripts.changed.length ?? 0,
      scriptsRemoved: changes?.scripts.removed.length ?? 0,
      originChanges: changes?.origins.length ?? 0,
      policyChanges: changes?.policy.length ?? 0,
      headerChanges: changes?.headers.length ?? 0,
      drift: drift.state,
    };
    await putWatchRun(db, {
      analysisId: snapshot.analysisId,
      domainId,
      completedAt: snapshot.completedAt,
      previousAnalysisId: previous?.analysisId ?? null,
      counts,
      snapshot,
      changes,
      drift,
    });
    previous = snapshot;
  }
  return [first, last];
}

const runTexts = (page: Page) =>
  page.$$eval('[data-testid="change-run"]', (runs) =>
    runs.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ')),
  );
const waitForRuns = (page: Page, n: number) =>
  page.waitForFunction(
    (count: number) => document.querySelectorAll('[data-testid="change-run"]').length === count,
    { timeout: 20_000 },
    n,
  );

/** The panel at 1440 and 390 px, into SHOTS_DIR when set; at 390 px nothing may be wider than the screen. */
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
    if (width === 390) {
      const wide = await page.$$eval('[data-testid="changes-panel"] *', (els) =>
        els.filter((e) => e.getBoundingClientRect().right > 390).map((e) => e.outerHTML.slice(0, 120)),
      );
      expect(wide).toEqual([]);
    }
    const panel = await page.$('[data-testid="changes-panel"]');
    await panel!.screenshot({ path: join(dir, `${name}-${width}.png`) });
  }
  await page.setViewport({ width: 1280, height: 900 });
}

describe('the Changes panel', () => {
  it('counts what changed per run and details a run: scripts, a header removed, the drift', async () => {
    const domain = await (
      await t.client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com/' })
    ).json();
    const [first, last] = await storeRuns(t.server.deps.db, domain.id, 2);
    const changes = compareRuns(first, last);
    const changed = changes.scripts.changed[0]!;
    expect(changes.scripts.changed.length).toBeGreaterThan(0);

    await t.page.setViewport({ width: 1280, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await waitForRuns(t.page, 1);
    const heading = await t.page.$eval(
      'section[aria-labelledby="domain-changes-title"] h2',
      (h) => (h as HTMLElement).innerText,
    );
    expect(heading).toBe('Changes');
    const [run] = await runTexts(t.page);
    expect(run).toContain(`${changes.scripts.added.length} scripts added`);
    expect(run).toContain(`${changes.scripts.changed.length} scripts changed`);
    expect(run).toContain(`${changes.scripts.removed.length} scripts removed`);
    expect(run).toContain(`${changes.headers.length} header changes`);
    expect(run).toContain('Drift from the saved policy');
    expect(await t.page.$eval('[data-testid="change-run"] a', (a) => a.getAttribute('href'))).toBe(
      `/analysis/${runId(1)}`,
    );
    expect(await t.page.$('[data-testid="run-details"]')).toBeNull();

    const details = await t.page.waitForSelector(
      'xpath/.//li[@data-testid="change-run"]//button[normalize-space()="Details"]',
    );
    await clickUncovered(t.page, details!);
    await t.page.waitForSelector('[data-testid="run-details"]');
    const text = await t.page.$eval('[data-testid="run-details"]', (d) => (d as HTMLElement).innerText);
    // The changed script: its URL and both digests, old then new.
    expect(text).toContain(changed.after.url!);
    expect(text.replace(/\s+/g, ' ')).toContain(`${changed.before.digest} → became ${changed.after.digest}`);
    // A fourth-party script names who loaded it.
    expect(text).toMatch(/Loaded by https:\/\/vendor\d+\.example\.net\/tag\.js/);
    // X-Frame-Options removed on the first two pages, with the value it had.
    const headers = await t.page.$$eval('[data-testid="header-change"]', (hs) =>
      hs.map((h) => (h as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
    const xfo = headers.find((h) => h.startsWith('x-frame-options'));
    expect(xfo).toMatch(
      /x-frame-options Removed Before DENY After not served 2 pages: https:\/\/shop\.example\.com\/p\/0, https:\/\/shop\.example\.com\/p\/1/,
    );
    // The drift: the served policy allows a vendor the saved one does not.
    const drift = await t.page.$eval('[data-testid="drift-details"]', (d) => (d as HTMLElement).innerText);
    expect(drift).toMatch(/Drift from the saved policy\s+content-security-policy/);
    expect(drift).toContain('8 pages');
    expect(drift.replace(/\s+/g, ' ')).toContain('script-src Changed + added https://vendor1.example.net');
    await screenshots(t.page, 'changes-details');
  }, 120_000);

  it('brings older runs with Load more; before a second analysis, after a failed read and a retry, the empty state', async () => {
    const domain = await (
      await t.client.post('/api/domains', { name: 'Busy', url: 'https://busy.example/' })
    ).json();
    // 22 runs: 21 compared, one page of 20 and one more.
    await storeRuns(t.server.deps.db, domain.id, 22);
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await waitForRuns(t.page, 20);
    const newest = (await runTexts(t.page))[0];
    expect(newest).toContain('header changes');
    // The older runs changed nothing (same snapshot again), but still drift.
    expect((await runTexts(t.page))[1]).toMatch(/No changes.*Drift from the saved policy/);
    const more = await t.page.waitForSelector('xpath/.//button[normalize-space()="Load more"]');
    await clickUncovered(t.page, more!);
    await waitForRuns(t.page, 21);
    expect(await t.page.$('xpath/.//button[normalize-space()="Load more"]')).toBeNull();

    const quiet = await (
      await t.client.post('/api/domains', { name: 'Quiet', url: 'https://quiet.example/' })
    ).json();
    await storeRuns(t.server.deps.db, quiet.id, 1);
    // The first read fails: the panel says so and offers to try again, which reads it.
    const changesPath = `/api/domains/${quiet.id}/changes`;
    let failing = true;
    const onRequest = (request: HTTPRequest) => {
      if (failing && new URL(request.url()).pathname === changesPath) {
        void request.respond({ status: 500, contentType: 'application/json', body: '{"message":"down"}' });
      } else {
        void request.continue();
      }
    };
    t.guard.allowFailedRequest(changesPath, 500);
    await intercepting(t.page, onRequest, async () => {
      await t.page.goto(`${t.server.url}/domains/${quiet.id}`, { waitUntil: 'load' });
      expect((await waitForToast(t.page, 'Failed to fetch the changes')).variant).toBe('destructive');
      const retry = await t.page.waitForSelector(
        'xpath/.//*[@data-testid="changes-panel"]//*[@role="alert"]//button[normalize-space()="Try again"]',
      );
      failing = false;
      // The retry goes through this handler: interception stays on until its answer came back (turned off
      // while the request is held, the request would never be let through).
      const answered = t.page.waitForResponse(
        (r) => new URL(r.url()).pathname === changesPath && r.status() === 200,
        { timeout: 20_000 },
      );
      await clickUncovered(t.page, retry!);
      await answered;
    });
    await t.page.waitForFunction(() =>
      document.body.innerText.includes(
        "No changes yet: the first comparison appears after a domain's second analysis",
      ),
    );
    expect(await t.page.$('[data-testid="change-run"]')).toBeNull();
    await screenshots(t.page, 'changes-empty');
  }, 120_000);

  it("lists on the dashboard each domain's scripts pending review and its last run's drift", async () => {
    const domain = await (
      await t.client.post('/api/domains', { name: 'Watched shop', url: 'https://watched.example/' })
    ).json();
    const [, last] = await storeRuns(t.server.deps.db, domain.id, 2);
    await updateInventory(t.server.deps.db, {
      domainId: domain.id,
      snapshot: {
        analysisId: last.analysisId,
        completedAt: last.completedAt,
        scripts: last.scripts.slice(0, 4),
      },
    });
    await t.page.setViewport({ width: 1280, height: 900 });
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await dismissAchievementOverlay(t.page);
    const cell = await t.page.waitForSelector(
      `xpath/.//tr[@data-testid="domain-row"][.//a[normalize-space()="Watched shop"]]//td[@data-testid="domain-watch"]`,
    );
    await t.page.waitForFunction((c) => (c as HTMLElement).innerText.includes('to review'), {}, cell);
    expect(await cell!.evaluate((c) => (c as HTMLElement).innerText.replace(/\s+/g, ' '))).toBe(
      '4 to review Drift',
    );
    for (const width of [1440, 390]) {
      if (!process.env.SHOTS_DIR) break;
      await t.page.setViewport({ width, height: 900 });
      await new Promise((r) => setTimeout(r, 300));
      const row = await t.page.waitForSelector(
        `xpath/.//tr[@data-testid="domain-row"][.//a[normalize-space()="Watched shop"]]`,
      );
      expect(await row!.evaluate((r) => (r as HTMLElement).innerText)).toContain('4 to review');
      const card = await t.page.$('xpath/.//div[./div/div/h2[contains(., "Your Domains")]]');
      await card!.screenshot({ path: join(process.env.SHOTS_DIR, `dashboard-domains-${width}.png`) });
    }
  }, 120_000);
});
