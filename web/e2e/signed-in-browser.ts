// The frame of every browser test file: a production build of web/, the real product server on the run's
// DynamoDB Local, one Chromium with one guarded page, closed after the file, and (unless the file tests
// visitors) the session of a freshly registered user shared with the browser. Every test must leave its
// guarded pages clean (no CSP violation, console error or uncaught exception).
import { rmSync } from 'node:fs';
import { registeredClient, startTestServer } from '@csp/functions/src/testing/api-server';
import type { HttpClient } from '@csp/functions/src/testing/http-client';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { allowDownloads, buildWeb, guardPage, type PageGuard, shareSession } from './harness';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;
type CrawlHandler = NonNullable<NonNullable<Parameters<typeof startTestServer>[0]>['crawlHandler']>;

/** Takes every message and does nothing: started analyses stay as they were started or seeded. */
const idleCrawlHandler: CrawlHandler = () => async () => {};

export interface SignedInBrowserOptions {
  /** The crawl queue's handler; by default an idle one. */
  crawlHandler?: CrawlHandler;
  /** A registered user whose session the browser shares (default); false: the browser is a visitor. */
  signedIn?: boolean;
  /** Lets the browser save downloads into a temporary folder (`downloads`), removed after the file. */
  downloads?: boolean;
  /** Lets the product's pages read and write the clipboard. */
  clipboard?: boolean;
}

export interface SignedInBrowser {
  readonly server: TestServer;
  readonly browser: Browser;
  readonly page: Page;
  readonly guard: PageGuard;
  /** The folder downloads are saved into (`downloads: true`). */
  readonly downloads: string;
  /** The signed-in user (`signedIn`, the default), their API client and password. */
  readonly user: { id: string; username: string };
  readonly client: HttpClient;
  readonly password: string;
  /** Signs a new user in (after a test ended the session): `user`, `client` and `password` are theirs. */
  signInAgain(): Promise<void>;
  /** Guards another page (e.g. of a second browser context) too; it is checked after each test as well. */
  guardPage(page: Page): Promise<PageGuard>;
}

type Account = Awaited<ReturnType<typeof registeredClient>>;

/** Registers the file's beforeAll, afterAll and afterEach hooks; the getters are valid inside tests. */
export function setupSignedInBrowser(options: SignedInBrowserOptions = {}): SignedInBrowser {
  const { crawlHandler = idleCrawlHandler, signedIn = true } = options;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let downloads: string | undefined;
  let account: Account | undefined;
  const guards: PageGuard[] = [];

  const signIn = async () => {
    account = await registeredClient(server.url, { firstName: 'Grace' });
    await shareSession(browser, account.client.cookies);
  };
  const signedInAccount = (): Account => {
    if (!account) throw new Error('No user is signed in: this file set up a visitor (signedIn: false)');
    return account;
  };

  beforeAll(async () => {
    const webDist = buildWeb();
    [server, browser] = await Promise.all([startTestServer({ webDist, crawlHandler }), launchBrowser()]);
    page = await browser.newPage();
    guards.push(await guardPage(page));
    if (options.downloads) downloads = await allowDownloads(browser);
    if (options.clipboard) {
      await browser
        .defaultBrowserContext()
        .overridePermissions(server.url, ['clipboard-read', 'clipboard-write']);
    }
    if (signedIn) await signIn();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (downloads) rmSync(downloads, { recursive: true, force: true });
  });

  afterEach(() => {
    for (const guard of guards) guard.assertClean();
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
      return guards[0]!;
    },
    get downloads() {
      if (!downloads) throw new Error('Downloads are not saved: set up the browser with downloads: true');
      return downloads;
    },
    get user() {
      return signedInAccount().user;
    },
    get client() {
      return signedInAccount().client;
    },
    get password() {
      return signedInAccount().password;
    },
    signInAgain: signIn,
    async guardPage(other) {
      const guard = await guardPage(other);
      guards.push(guard);
      return guard;
    },
  };
}
