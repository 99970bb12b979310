// The domain screen's first data, asked for side by side: opened by its address (a full page load, as from
// an alert's link), the domain and its analyses are both requested while the screen's code loads, so a
// slow answer for the domain does not also hold the analyses back (one round trip before the screen, not
// two in a row). The domain's answer is held here for a while: the analyses are asked for meanwhile.
import type { HTTPRequest } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const HOLD_MS = 1_500;

describe('the domain screen', () => {
  it('asks for the domain and its analyses side by side', async () => {
    const domain = await (
      await t.client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com' })
    ).json();
    const domainPath = `/api/domains/${domain.id}`;
    const seen: string[] = [];
    const onRequest = (request: HTTPRequest) => {
      const path = new URL(request.url()).pathname;
      if (path === domainPath) {
        seen.push('domain asked');
        setTimeout(() => {
          seen.push('domain released');
          void request.continue();
        }, HOLD_MS);
        return;
      }
      if (path === `${domainPath}/analyses`) seen.push('analyses asked');
      void request.continue();
    };
    await t.page.setRequestInterception(true);
    t.page.on('request', onRequest);
    try {
      await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
      await t.page.waitForSelector('xpath/.//h1[normalize-space()="Shop"]', { timeout: 20_000 });
    } finally {
      t.page.off('request', onRequest);
      await t.page.setRequestInterception(false);
    }
    expect(seen.indexOf('analyses asked')).toBeGreaterThan(-1);
    expect(seen.indexOf('analyses asked')).toBeLessThan(seen.indexOf('domain released'));
  });
});
