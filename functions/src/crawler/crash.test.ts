// A renderer that crashes mid-visit is given up at once: the visit ends "the page crashed" (the tab is
// replaced, the page tried again) without waiting out the time limits of the steps that were still waiting
// on it (the load event, quiet, the scroll, collecting: some 45 s in all). The page here never finishes
// loading (an image that is never answered), and the test crashes its renderer through DevTools.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, withBrowserSession } from './browser-session';
import { DENY_ALL_POLICY } from './request-interception';

let server: http.Server;
let origin: string;
const held: http.ServerResponse[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/never.png') return void held.push(res); // answered never: the load event waits
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Hangs</title><img src="/never.png" alt="">');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('a renderer that crashes during a visit', () => {
  it('ends the visit at once, as a crash', { timeout: 90_000 }, async () => {
    await withBrowserSession({ allowPrivateTargets: true }, async (session: BrowserSession) => {
      const tab = await session.openTab({ siteOrigin: () => origin, policy: DENY_ALL_POLICY });
      try {
        const started = Date.now();
        const visit = tab.visit(`${origin}/`);
        // Once the page waits for its load event, crash its renderer.
        while (held.length === 0) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 300));
        const page = (await session.browser.pages()).find((p) => p.url().startsWith(origin));
        expect(page).toBeDefined();
        const cdp = await page!.createCDPSession();
        // Not awaited: the answer never comes (the renderer is gone).
        void cdp.send('Page.crash').catch(() => {});
        const result = await visit;
        const took = Date.now() - started;
        expect(result).toMatchObject({ error: `${origin}/: the page crashed`, tabBroken: true });
        // Without the crash signal this visit took 45 s (its steps' time limits); a few seconds is the
        // launch and the crash itself on a loaded machine.
        expect(took).toBeLessThan(8_000);
      } finally {
        await tab.close().catch(() => {});
      }
    });
  });
});
