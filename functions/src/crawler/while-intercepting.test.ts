// Requests that start while interception is being switched off, in real Chromium and Firefox: none is left
// paused (in Firefox a paused request nobody answers never settles) and the handler is never handed one it
// cannot answer (Puppeteer throws "Request Interception is not enabled!"). Prints `skipped: needs
// firefox-esr` and runs Chromium alone when Firefox is absent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type HTTPRequest } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumEnvironment, closeBrowser } from './browser';
import { findFirefox } from './firefox';
import { whileIntercepting } from './while-intercepting';

const firefox = findFirefox(process.env.FIREFOX_PATH);
if ('unavailable' in firefox) console.log('skipped: needs firefox-esr');

const engines: [string, () => Promise<Browser>][] = [
  [
    'Chromium',
    async () =>
      puppeteer.launch({
        executablePath: await chromium.executablePath(),
        env: chromiumEnvironment(process.env),
        args: chromium.args.filter((arg) => !arg.startsWith('--headless')),
        headless: true,
      }),
  ],
];
if ('executablePath' in firefox) {
  const { executablePath } = firefox;
  engines.push([
    'Firefox',
    () =>
      puppeteer.launch({
        browser: 'firefox',
        executablePath,
        env: chromiumEnvironment(process.env),
        headless: true,
      }),
  ]);
}

describe.each(engines)('whileIntercepting in %s', (_engine, launch) => {
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
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    if (browser) await closeBrowser(browser);
    await new Promise((resolve) => server?.close(resolve));
  });

  it('answers during the work, and leaves no request paused when it ends amid a stream of fetches, twice on a page', async () => {
    for (let round = 0; round < 3; round++) {
      const page = await browser.newPage();
      try {
        await page.goto(`${origin}/`);
        // Twice on the same page: switched on again, interception works as the first time.
        for (const pass of [1, 2]) {
          const answered: string[] = [];
          const refused: string[] = [];
          const answer = (request: HTTPRequest) => {
            answered.push(new URL(request.url()).pathname);
            request.continue().catch((error: Error) => refused.push(error.message));
          };
          await whileIntercepting(page, answer, async () => {
            // A fetch every 2 ms for 400 ms, while the work ends after 100 ms.
            await page.evaluate(`window.started = 0; window.settled = 0;
            window.timer = setInterval(() => {
              window.started++;
              fetch('/f' + window.started).finally(() => window.settled++);
            }, 2);
            setTimeout(() => clearInterval(window.timer), 400);
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
          expect(settled, `round ${round}, pass ${pass}`).toBe(started);
          expect(
            refused,
            `round ${round}, pass ${pass}: requests handed over that could not be answered`,
          ).toEqual([]);
        }
      } finally {
        await page.close();
      }
    }
  }, 60_000);
});
