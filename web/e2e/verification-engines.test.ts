// The analysis screen says which browsers tried the policy: "Verified in Chromium and Firefox" when both
// did, or the engine it could not use and why (the AWS crawler is Chromium-only); what only Firefox still
// blocked is marked as Firefox's. Screenshots at desktop and phone widths go to /tmp/shots-firefox/.
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REMAINING_VERIFICATION, seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const SHOTS = '/tmp/shots-firefox';
const standalone = () => ({ userId: t.user.id, domainId: null, url: 'https://www.example.com' });

const innerText = (selector: string) =>
  t.page.$eval(selector, (el) => (el as HTMLElement).innerText.replace(/\s+/g, ' '));

async function openAndShoot(id: string, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await t.page.setViewport({ width, height });
    await t.page.goto(`${t.server.url}/analysis/${id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="verification"]');
    await t.page.$eval('[data-testid="verification"]', (el) => el.scrollIntoView({ block: 'center' }));
    await t.page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await t.page.setViewport({ width: 1280, height: 900 });
}

describe('the engines that verified the policy', () => {
  it('says "Verified in Chromium and Firefox" when both tried it', async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), {
      verification: {
        pagesChecked: 10,
        violations: 0,
        samples: [],
        remaining: [],
        refined: true,
        firstPassViolations: 2,
        engines: [
          { engine: 'chromium', pagesChecked: 10, violations: 0 },
          { engine: 'firefox', version: 'firefox/153.7.0', pagesChecked: 10, violations: 0 },
        ],
      },
      needsAttention: false,
    });
    await openAndShoot(id, 'both-engines');
    expect(await innerText('[data-testid="verification-engines"]')).toBe('Verified in Chromium and Firefox.');
  });

  it('names the engine it could not use and why, and marks what only Firefox blocked', async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), {
      verification: {
        ...REMAINING_VERIFICATION,
        remaining: [
          ...(REMAINING_VERIFICATION.remaining ?? []),
          {
            directive: 'img-src',
            blocked: 'https://www.example.com/favicon.ico',
            page: 'https://www.example.com/',
            engine: 'firefox',
          },
        ],
        violations: 3,
        engines: [
          { engine: 'chromium', pagesChecked: 10, violations: 2 },
          { engine: 'firefox', pagesChecked: 10, violations: 1 },
        ],
      },
      needsAttention: true,
    });
    await openAndShoot(id, 'firefox-blocked');
    const items = await t.page.$$eval('[data-testid="remaining-violation"]', (lis) =>
      lis.map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
    expect(items.at(-1)).toBe('img-src blocked https://www.example.com/favicon.ico in Firefox on /');
    expect(items.filter((i) => i.includes('in Firefox'))).toHaveLength(1);

    const aws = await seedCompleted(t.server.deps.db, standalone(), {
      verification: {
        pagesChecked: 10,
        violations: 0,
        samples: [],
        remaining: [],
        engines: [
          { engine: 'chromium', pagesChecked: 10, violations: 0 },
          { engine: 'firefox', unavailable: 'the crawler in AWS runs Chromium only (Lambda has no Firefox)' },
        ],
      },
      needsAttention: false,
    });
    await openAndShoot(aws, 'chromium-only');
    expect(await innerText('[data-testid="verification-engines"]')).toBe(
      'Verified in Chromium only. Firefox could not be used: the crawler in AWS runs Chromium only (Lambda has no Firefox).',
    );
  });
});
