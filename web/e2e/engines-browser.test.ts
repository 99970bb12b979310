// What differs between engines, on screen: the policy card lists the engines and minimum versions the
// policy is meant for (from the shared engine table and the directives the policy relies on), and the
// reports panel marks a suggestion only one engine reports ("Firefox only") with the reports per engine.
// Screenshots at 1440 and 390 px go to /tmp/shots-engines/.
import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { visibleText } from './harness';
import { seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const SHOTS = '/tmp/shots-engines';
mkdirSync(SHOTS, { recursive: true });

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

async function open(path: string, selector: string) {
  await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'load' });
  await t.page.waitForSelector(selector);
}

/** Continues past any achievement overlay (a first domain unlocks one), so the screenshots show the screen. */
async function continuePastAchievements() {
  for (let i = 0; i < 10; i++) {
    const button = await t.page
      .waitForSelector('[data-testid="achievement-continue"]', { timeout: 2000 })
      .catch(() => null);
    if (!button) return;
    await button.click();
    await t.page
      .waitForSelector('[data-testid="achievement-continue"]', { hidden: true, timeout: 5000 })
      .catch(() => null);
  }
}

/** The viewport at 1440 and 390 px, scrolled so that `selector` is at its top. */
async function shots(name: string, selector: string) {
  await continuePastAchievements();
  for (const [label, width, height] of [
    ['desktop', 1440, 900],
    ['phone', 390, 844],
  ] as const) {
    await t.page.setViewport({ width, height, deviceScaleFactor: label === 'phone' ? 2 : 1 });
    await t.page.waitForSelector(selector);
    await t.page.$eval(selector, (el) => {
      const top = el.getBoundingClientRect().top + window.scrollY - 80;
      window.scrollTo(0, top);
    });
    await t.page.screenshot({ path: `${SHOTS}/${name}-${label}.png` });
  }
  await t.page.setViewport({ width: 1440, height: 900 });
}

const engineBadges = () =>
  t.page.$$eval('[data-testid="policy-engines"] [data-engine]', (els) =>
    els.map((el) => (el as HTMLElement).innerText.trim()),
  );

afterAll(async () => {
  await t.page.setViewport({ width: 1440, height: 900 });
});

describe('engines on screen', () => {
  it('the policy card lists the engines and minimum versions the policy is meant for, and why', async () => {
    const target = { userId: t.user.id, domainId: null, url: 'https://www.example.com' };
    // The seeded marketing-site policy allows an event handler by its hash ('unsafe-hashes' in
    // script-src-attr) and workers under worker-src.
    const rich = await seedCompleted(t.server.deps.db, target);
    await open(`/analysis/${rich}`, '[data-testid="policy-engines"]');
    expect(await engineBadges()).toEqual(['Chromium 75+', 'Firefox 109+', 'Safari 15.5+']);
    const why = await t.page.$eval(
      '[data-testid="policy-engines-why"]',
      (el) => (el as HTMLElement).innerText,
    );
    expect(why).toContain("'unsafe-hashes'");
    expect(why).toContain('worker-src');
    await shots('policy-card-engines', '[data-testid="policy-engines"]');

    // A policy with nothing newer than CSP Level 2: every browser of the last ten years.
    const plain = await seedCompleted(t.server.deps.db, target, {
      cspRules: {
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'img-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
      },
      strictCspRules: null,
    });
    await open(`/analysis/${plain}`, '[data-testid="policy-engines"]');
    expect(await engineBadges()).toEqual(['Chromium 40+', 'Firefox 36+', 'Safari 10+']);
  });

  it('the reports panel marks a Firefox-only miss and counts the reports per engine', async () => {
    const site = 'https://shop.example.com';
    const domain = await (await t.client.post('/api/domains', { name: 'Shop', url: site })).json();
    const send = (userAgent: string, page: string, directive: string, blocked: string) =>
      fetch(`${t.server.url}/api/uri-report?domain=${domain.uuid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report', 'user-agent': userAgent },
        body: JSON.stringify({
          'csp-report': {
            'document-uri': `${site}${page}`,
            'violated-directive': directive,
            'blocked-uri': blocked,
            'original-policy': "default-src 'none'",
          },
        }),
      });
    for (const page of ['/', '/cart']) await send(FIREFOX, page, 'img-src', `${site}/favicon.ico`);
    await send(CHROME, '/', 'connect-src', 'https://api.tracker.example/collect');
    await send(SAFARI, '/cart', 'connect-src', 'https://api.tracker.example/collect');
    await t.server.reportQueue.idle();

    await open(`/domains/${domain.id}`, '[data-testid="report-suggestion"]');
    await t.page.waitForSelector('[data-testid="engine-only"]');
    const suggestions = await t.page.$$eval('[data-testid="report-suggestion"]', (els) =>
      els.map((el) => ({
        only: el.querySelector('[data-testid="engine-only"]')?.textContent ?? null,
        engines:
          (el.querySelector('[data-testid="suggestion-engines"]') as HTMLElement | null)?.innerText ?? '',
        text: (el as HTMLElement).innerText,
      })),
    );
    const favicon = suggestions.find((s) => s.text.includes('img-src'));
    const tracker = suggestions.find((s) => s.text.includes('connect-src'));
    expect(favicon).toMatchObject({ only: 'Firefox only', engines: 'Reported by Firefox 2' });
    expect(tracker).toMatchObject({ only: null, engines: 'Reported by Chromium 1 · Safari 1' });
    expect(await visibleText(t.page)).toContain('Firefox only');
    await shots('report-suggestions-engines', '[data-testid="report-suggestion"]');
  });
});
