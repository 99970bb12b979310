// Puppeteer request interception around a piece of work, switched off at a quiet moment, in a safe order.
import type { HTTPRequest, Page } from 'puppeteer-core';

/** How long the page must be without a request in flight before interception is switched off, and the most
 * it is waited for (a page that never goes quiet — a stream, a poll — is switched off after that anyway). */
const QUIET_MS = 100;
const QUIET_WAIT_MS = 3_000;

/**
 * Runs `work` with every request of `page` paused and handed to `answer`, then turns interception off.
 * Switching it off loses a request that starts at that moment, in both engines (measured, ~95 fetches
 * streaming across the switch): in Chromium `Fetch.disable` drops a request the network has announced but
 * not yet paused (1–4 pending after 20 s, in 5 rounds of 6); in Firefox (WebDriver BiDi) a request paused as
 * the intercept goes stays pending for ever if nobody answers it (4–8 per round when the handler went
 * first). So it is switched off once the page has had no request in flight for a moment, with `answer` still
 * answering until then (what the page asks meanwhile is the work's too), and the handler goes after.
 * Interception cannot just stay on: Puppeteer never announces a dedicated worker's paused requests, which
 * would hang. `answer` is handed only paused requests: Puppeteer refuses to answer one that started after
 * the switch ("Request Interception is not enabled!", an unhandled rejection in the caller).
 */
export async function whileIntercepting<T>(
  page: Page,
  answer: (request: HTTPRequest) => void,
  work: () => Promise<T>,
): Promise<T> {
  const paused = (request: HTTPRequest) => {
    if (request.interceptResolutionState().action !== 'disabled') answer(request);
  };
  await page.setRequestInterception(true);
  page.on('request', paused);
  try {
    return await work();
  } finally {
    await page.waitForNetworkIdle({ idleTime: QUIET_MS, timeout: QUIET_WAIT_MS }).catch(() => {});
    await page.setRequestInterception(false).catch(() => {});
    page.off('request', paused);
  }
}
