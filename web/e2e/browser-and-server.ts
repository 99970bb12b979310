// The common frame of a browser test file: a production build of web/, the real product server on the
// run's DynamoDB Local and one Chromium with one guarded page, closed after the file; every test must leave
// the page clean (no CSP violation, console error or uncaught exception).
import { startTestServer } from '@csp/functions/src/testing/api-server';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { buildWeb, guardPage, type PageGuard } from './harness';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

export interface BrowserAndServer {
  readonly server: TestServer;
  readonly browser: Browser;
  readonly page: Page;
  readonly guard: PageGuard;
}

/** Registers the file's beforeAll, afterAll and afterEach hooks; the getters are valid inside tests. */
export function setupBrowserAndServer(
  options: Omit<NonNullable<Parameters<typeof startTestServer>[0]>, 'webDist'> = {},
): BrowserAndServer {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let guard: PageGuard;

  beforeAll(async () => {
    const webDist = buildWeb();
    [server, browser] = await Promise.all([startTestServer({ ...options, webDist }), launchBrowser()]);
    page = await browser.newPage();
    guard = await guardPage(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(() => {
    guard.assertClean();
  });

  return {
    get server() {
      return server;
    },
    get browser() {
      return browser;
    },
    get page() {
      return page;
    },
    get guard() {
      return guard;
    },
  };
}
