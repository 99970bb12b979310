// Browser test harness: a production build of the web app (built once per source state, cached), the real
// product server on the test run's DynamoDB Local, and a page guard that fails a test on any CSP violation,
// console error or uncaught exception.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { whileIntercepting } from '@csp/functions/src/crawler/while-intercepting';
import type { Browser, ConsoleMessage, ElementHandle, HTTPRequest, Page } from 'puppeteer-core';
import type {} from 'vitest';

declare module 'vitest' {
  // Provided by the run's global setup (functions/src/testing/global-setup.ts).
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

const WEB_DIR = resolve(import.meta.dirname, '..');
const REPO_DIR = resolve(WEB_DIR, '..');
const INPUTS = [
  'web/index.html',
  'web/vite.config.ts',
  'web/src',
  'web/public',
  'shared/src',
  'package-lock.json',
];

function collectFiles(path: string, out: string[]) {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) collectFiles(join(path, entry), out);
  } else out.push(path);
}

function sourceHash(): string {
  const hash = createHash('sha256');
  const files: string[] = [];
  for (const input of INPUTS) collectFiles(join(REPO_DIR, input), files);
  for (const file of files) {
    hash.update(relative(REPO_DIR, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds web/ with Vite (production mode, as `npm run build:web` does) into web/.test-artifacts and returns
 * the folder. Test files share a build of the same sources; concurrent builders race to an atomic rename.
 */
export function buildWeb(): string {
  const outDir = join(WEB_DIR, '.test-artifacts', `dist-${sourceHash()}`);
  if (existsSync(join(outDir, 'index.html'))) return outDir;
  const tmpDir = `${outDir}.tmp-${process.pid}`;
  const viteBin = join(
    dirname(createRequire(import.meta.url).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  const result = spawnSync(
    process.execPath,
    [viteBin, 'build', WEB_DIR, '--outDir', tmpDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: REPO_DIR, env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  mkdirSync(dirname(outDir), { recursive: true });
  try {
    renameSync(tmpDir, outDir);
  } catch {
    rmSync(tmpDir, { recursive: true, force: true }); // another test file finished the same build first
  }
  removeStaleBuilds(outDir);
  return outDir;
}

/** Builds of older sources, not touched for 10 minutes (a running test file may still serve a recent one). */
function removeStaleBuilds(current: string) {
  const parent = dirname(current);
  for (const entry of readdirSync(parent)) {
    const path = join(parent, entry);
    if (path !== current && entry.startsWith('dist-') && Date.now() - statSync(path).mtimeMs > 600_000) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

export interface PageGuard {
  /** Everything that went wrong on the page since the last check (CSP violations, console errors...). */
  problems(): string[];
  /** An expected failed request (e.g. a 401 of a wrong password) is not a problem: its console line is. */
  allowFailedRequest(path: string, status: number): void;
  /** Throws when anything went wrong; then starts afresh. */
  assertClean(): void;
}

/**
 * Watches a page for `securitypolicyviolation` events, console errors and uncaught exceptions.
 * The only console error expected everywhere is the 401 of GET /api/user for a visitor (the browser logs
 * every failed request; the app reads that 401 as "not signed in").
 */
export async function guardPage(page: Page): Promise<PageGuard> {
  let problems: string[] = [];
  const allowed: Array<{ path: string; status: number }> = [{ path: '/api/user', status: 401 }];

  await page.exposeFunction('__reportCspViolation', (text: string) => {
    problems.push(`CSP violation: ${text}`);
  });
  // Installed before any page script runs, in every document the page loads.
  await page.evaluateOnNewDocument(`
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__reportCspViolation(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') +
        ' at ' + e.sourceFile + ':' + e.lineNumber + ' sample=' + e.sample);
    });
  `);

  const isAllowed = (message: ConsoleMessage) => {
    const match = /status of (\d{3})/.exec(message.text());
    if (!match || !message.text().startsWith('Failed to load resource')) return false;
    const url = message.location().url ?? '';
    return allowed.some((a) => String(a.status) === match[1] && new URL(url, 'http://x').pathname === a.path);
  };

  page.on('console', (message) => {
    if (message.type() === 'error' && !isAllowed(message)) {
      problems.push(`console error: ${message.text()} (${message.location().url ?? ''})`);
    }
  });
  page.on('pageerror', (error) =>
    problems.push(`uncaught: ${error instanceof Error ? error.message : error}`),
  );

  return {
    problems: () => [...problems],
    allowFailedRequest: (path, status) => allowed.push({ path, status }),
    assertClean() {
      const found = problems;
      problems = [];
      if (found.length > 0) throw new Error(`The page reported problems:\n${found.join('\n')}`);
    },
  };
}

/** The page's visible text, whitespace collapsed. */
export async function visibleText(page: Page): Promise<string> {
  const text = await page.evaluate(() => document.body.innerText);
  return text.replace(/\s+/g, ' ');
}

/** Waits until the current toast has this title, and returns its title and description text. */
export async function waitForToast(page: Page, title: string): Promise<{ text: string; variant: string }> {
  const handle = await page
    .waitForFunction(
      (wanted: string) => {
        const toast = [...document.querySelectorAll<HTMLElement>('[data-testid="toast"]')].find((t) =>
          t.innerText.includes(wanted),
        );
        return toast
          ? { text: toast.innerText.replace(/\s+/g, ' '), variant: toast.dataset.variant ?? '' }
          : null;
      },
      { timeout: 15_000 },
      title,
    )
    .catch(async (error: Error) => {
      // Say what the screen showed instead: the toast that came, or none.
      const shown = await page
        .$$eval('[data-testid="toast"]', (ts) =>
          ts.map((t) => (t as HTMLElement).innerText.replace(/\s+/g, ' ')),
        )
        .catch(() => []);
      throw new Error(`no '${title}' toast (${error.message}); toasts: ${JSON.stringify(shown)}`);
    });
  return (await handle.jsonValue()) as { text: string; variant: string };
}

/**
 * Records every toast shown from now on (one toast is on screen at a time, and a later one replaces an
 * earlier one at once): returns a reader of their texts, in order.
 */
export async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new WeakSet<Element>();
    const texts: string[] = [];
    (window as unknown as { __toasts: string[] }).__toasts = texts;
    const collect = () => {
      for (const toast of document.querySelectorAll('[data-testid="toast"]')) {
        if (seen.has(toast)) continue;
        seen.add(toast);
        texts.push((toast.textContent ?? '').replace(/\s+/g, ' '));
      }
    };
    collect();
    new MutationObserver(collect).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
}

/**
 * Runs `run` with every request of the page handed to `onRequest`, which continues, answers or holds it;
 * interception is off again afterwards, whatever happened.
 */
export function intercepting(
  page: Page,
  onRequest: (request: HTTPRequest) => void,
  run: () => Promise<void>,
): Promise<void> {
  return whileIntercepting(page, onRequest, run);
}

/** A request as the page itself recorded it (Resource Timing): when it was asked for and when it ended, in ms. */
export interface RequestTiming {
  path: string;
  at: number;
  end: number;
}

/** The page's requests so far, in the order it asked for them: the order they reached the connections. */
export async function requestTimings(page: Page): Promise<RequestTiming[]> {
  const list = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e as PerformanceResourceTiming)
      .map((e) => ({ path: new URL(e.name).pathname, at: e.startTime, end: e.responseEnd })),
  );
  return list.sort((a, b) => a.at - b.at);
}

/** The timings in one line, for an assertion's message. */
export const describeTimings = (list: readonly RequestTiming[]) =>
  list.map((r) => `${r.path}@${r.at.toFixed(0)}-${r.end.toFixed(0)}`).join(' ');

export async function waitForPath(page: Page, path: string, timeout = 15_000): Promise<void> {
  await page.waitForFunction((p: string) => location.pathname === p, { timeout }, path);
}

/**
 * Signs the browser out: its cookies go (a test's API client keeps its own session). The page is left first:
 * a screen still at work (the achievement overlay reads its unlocks once the screen is quiet) would otherwise
 * ask with no session and log the 401.
 */
export async function signOutInBrowser(page: Page): Promise<void> {
  await page.goto('about:blank');
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCookies');
  await cdp.detach();
}

/** Waits until the verification widget, which solves on its own once shown, is verified (no click). */
export async function solveWidget(page: Page): Promise<void> {
  await page.waitForSelector('altcha-widget [data-state="verified"]', { timeout: 30_000 });
}

/** Types into an input after clearing it. */
export async function fill(page: Page, selector: string, value: string): Promise<void> {
  // select() rather than a triple click: on a busy machine three clicks can arrive as separate ones and
  // leave the old text in place.
  await page.$eval(selector, (el) => {
    (el as HTMLInputElement).focus();
    (el as HTMLInputElement).select();
  });
  await page.keyboard.press('Backspace');
  if (value) await page.type(selector, value);
}

/** Clicks the first `tag` element (an XPath step: 'button', 'dialog//button', '*') whose text is `text`. */
export async function clickText(page: Page, tag: string, text: string): Promise<void> {
  const el = await page.waitForSelector(`xpath/.//${tag}[normalize-space()="${text}"]`);
  await clickUncovered(page, el!);
}

/** Clicks the element `selector` finds once nothing covers it (clickUncovered). */
export async function clickSelector(page: Page, selector: string): Promise<void> {
  const el = await page.waitForSelector(selector);
  await clickUncovered(page, el!);
}

/**
 * Clicks an element where a user would: its middle, once nothing lies over it. A toast fading out or a
 * layout still moving can cover it for a moment (wait); an achievement card that came up meanwhile is closed
 * as a user closes it (one still opening is waited for: it takes clicks a moment later, which could fall
 * between this check and the click); anything else over it for 5 s fails, naming what covers it.
 */
export async function clickUncovered(page: Page, el: ElementHandle<Element>): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    await el.scrollIntoView();
    const covering = await el.evaluate((node) => {
      // A card still opening lets clicks through, but takes them a moment later: the click would race it.
      if (document.querySelector('[role="dialog"][data-state="opening"]')) return 'opening';
      const r = node.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || node.contains(hit)) return null;
      const card = hit.closest('[data-testid="achievement-overlay"]');
      return card
        ? 'achievement'
        : `${hit.tagName.toLowerCase()} "${(hit.textContent ?? '').trim().slice(0, 60)}"`;
    });
    if (covering === null) break;
    if (covering === 'opening') {
      // Wait until it takes clicks, then close it below.
    } else if (covering === 'achievement') {
      await page.click('[data-testid="achievement-continue"]').catch(() => {});
    } else if (Date.now() > deadline) {
      throw new Error(`cannot click: covered by ${covering}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await el.click();
}

/** Lets the browser save downloads into a fresh temporary folder, and returns it. */
export async function allowDownloads(browser: Browser): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'csp-downloads-'));
  const cdp = await browser.target().createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: dir });
  return dir;
}

/**
 * Waits for a finished download of this name in `dir`, returns its text and removes it (so the next
 * download of the same name is waited for too). Chromium may create the file before it writes it (or
 * write a .crdownload first), and will not save a hidden file: .htaccess arrives as htaccess.txt.
 */
export async function waitForDownload(dir: string, filename: string): Promise<string> {
  const path = join(dir, filename.startsWith('.') ? `${filename.slice(1)}.txt` : filename);
  // Up to 30 s: a loaded CI machine can take seconds to write a small file.
  for (let i = 0; i < 300; i++) {
    try {
      const content = readFileSync(path, 'utf8');
      if (content !== '' && !existsSync(`${path}.crdownload`)) {
        rmSync(path);
        return content;
      }
    } catch {
      // not there yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${filename} was not downloaded (found: ${readdirSync(dir).join(', ')})`);
}

/** Hands an API client's session cookies to the browser: the browser is signed in as that user. */
export async function shareSession(browser: Browser, cookies: Map<string, string>): Promise<void> {
  await browser.setCookie(
    ...[...cookies].map(([name, value]) => ({ name, value, domain: '127.0.0.1', path: '/' })),
  );
}

/** Closes the toasts on screen, as a user does before clicking what a toast covers. */
export async function dismissToasts(page: Page): Promise<void> {
  for (const close of await page.$$('[data-testid="toast"] button[aria-label="Close"]')) {
    // A toast may close by itself between the query and the click (on a loaded machine): gone is the aim.
    await close.click().catch(async (error) => {
      if (await close.evaluate((el) => el.isConnected).catch(() => false)) throw error;
    });
  }
  // Closed toasts animate out (and stay in the DOM, hidden): wait until none is visible.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLElement>('[data-testid="toast"]')].every(
        (t) =>
          t.offsetParent === null ||
          getComputedStyle(t).opacity === '0' ||
          getComputedStyle(t).visibility === 'hidden',
      ),
    { timeout: 5000 },
  );
}

/** Clicks a button of the open dialog once its opening animation has settled. */
export async function confirmDialog(page: Page, label: string): Promise<void> {
  await page.waitForSelector('dialog[open]');
  await new Promise((r) => setTimeout(r, 250));
  await clickText(page, 'dialog[@open]//button', label);
}

/**
 * Continues past the achievement overlay(s) a new unlock shows on the dashboard, if any is up. The dashboard
 * must be loaded (its lists decide the overlay); then each overlay is continued until none comes for a while.
 */
export async function dismissAchievementOverlay(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="stat-card"]');
  for (let i = 0; i < 20; i++) {
    const overlay = await page
      .waitForSelector('[data-testid="achievement-continue"]', { timeout: i === 0 ? 2000 : 1000 })
      .catch(() => null);
    if (!overlay) return;
    const title = await page.$eval('[data-testid="achievement-overlay"] h2', (h) => h.textContent);
    await overlay.click();
    // Gone, or the next unlock's overlay in its place.
    await page.waitForFunction(
      (shown: string | null) =>
        document.querySelector('[data-testid="achievement-overlay"] h2')?.textContent !== shown,
      {},
      title,
    );
  }
}
