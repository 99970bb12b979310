// Requests that start while interception is being switched off, in real Firefox (where a paused request
// nobody answers never settles). Prints `skipped: needs firefox-esr` when Firefox is absent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer, { type Browser, type HTTPRequest } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFirefox } from './firefox';
import { whileIntercepting } from './while-intercepting';

const firefox = findFirefox(process.env.FIREFOX_PATH);
if ('unavailable' in firefox) console.log('skipped: needs firefox-esr');

describe.skipIf('unavailable' in firefox)('whileIntercepting', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(request.url === '/' ? '<p>page</p>' : 'answer');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if ('executablePath' in firefox)
      browser = await puppeteer.launch({
        browser: 'firefox',
        executablePath: firefox.executablePath,
        headless: true,
      });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('answers during the work, and leaves no request paused when it ends amid a stream of fetches', async () => {
    for (let round = 0; round < 3; round++) {
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/`);
        const answered: string[] = [];
        const answer = (request: HTTPRequest) => {
          answered.push(new URL(request.url()).pathname);
          void request.continue().catch(() => {});
        };
        await whileIntercepting(page, answer, async () => {
          // A fetch every 2 ms for 400 ms, so some start while interception is switched off after 100 ms.
          await page.evaluate(`window.started = 0; window.settled = 0;
            const timer = setInterval(() => {
              window.started++;
              fetch('/f' + window.started).finally(() => window.settled++);
            }, 2);
            setTimeout(() => clearInterval(timer), 400);
            0`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        });
        await page
          .waitForFunction('window.started > 0 && window.started === window.settled', {
            timeout: 5_000,
          })
          .catch(() => undefined);
        const { started, settled } = (await page.evaluate(
          '({ started: window.started, settled: window.settled })',
        )) as {
          started: number;
          settled: number;
        };
        expect(answered.length).toBeGreaterThan(0);
        expect(started).toBeGreaterThan(20);
        expect(settled, `round ${round}`).toBe(started);
      } finally {
        await page.close();
      }
    }
  }, 60_000);
});
