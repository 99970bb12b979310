// One signed-in user in a real browser against the real product: a production build of web/, the server on
// the run's DynamoDB Local (its crawl handler takes every message and does nothing, so started analyses stay
// pending), Chromium with a guarded page, downloads into a temporary folder and the clipboard allowed, and
// the session of a freshly registered user shared with the browser.
import { rmSync } from 'node:fs';
import { registeredClient, startTestServer } from '@csp/functions/src/testing/api-server';
import type { HttpClient } from '@csp/functions/src/testing/http-client';
import type { Browser, Page } from 'puppeteer-core';
import { launchBrowser } from './browser';
import { allowDownloads, buildWeb, guardPage, type PageGuard, shareSession } from './harness';

export interface SignedInBrowser {
  server: Awaited<ReturnType<typeof startTestServer>>;
  browser: Browser;
  page: Page;
  guard: PageGuard;
  downloads: string;
  user: { id: string; username: string };
  client: HttpClient;
  password: string;
}

export async function startSignedInBrowser(): Promise<SignedInBrowser> {
  const webDist = buildWeb();
  const [server, browser] = await Promise.all([
    startTestServer({ webDist, crawlHandler: () => async () => {} }),
    launchBrowser(),
  ]);
  const page = await browser.newPage();
  const guard = await guardPage(page);
  const downloads = await allowDownloads(browser);
  await browser
    .defaultBrowserContext()
    .overridePermissions(server.url, ['clipboard-read', 'clipboard-write']);
  return { server, browser, page, guard, downloads, ...(await signIn(server.url, browser)) };
}

/** A new user, signed in in the browser (after a test ended the previous session). */
export async function signIn(serverUrl: string, browser: Browser) {
  const account = await registeredClient(serverUrl, { firstName: 'Grace' });
  await shareSession(browser, account.client.cookies);
  return { user: account.user, client: account.client, password: account.password };
}

export async function closeSignedInBrowser(t: Partial<SignedInBrowser>): Promise<void> {
  await t.browser?.close();
  await t.server?.close();
  if (t.downloads) rmSync(t.downloads, { recursive: true, force: true });
}
