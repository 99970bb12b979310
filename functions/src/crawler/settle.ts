// The steps that let a page settle before it is collected: the load event, network idle, a scroll through
// (lazy images and frames load when scrolled into view). Each in-page step has a time limit, and a step
// that times out or fails says so: the capture is then `incomplete`, never silently thin.
import type { CDPSession } from 'puppeteer-core';
import type { NetworkRecorder } from './network-recorder';

export interface SettleOptions {
  /** Navigation (until DOMContentLoaded) may take this long before the page counts as failed. */
  navigationTimeoutMs: number;
  /** Then wait for the load event at most this long. */
  loadTimeoutMs: number;
  /** Network counts as idle after this long without a request in flight. */
  idleMs: number;
  /** Give up waiting for idle after this long (pages that poll never go idle). */
  idleMaxMs: number;
  /** A request unanswered for this long no longer holds idle back. */
  stallMs: number;
}

export const DEFAULT_SETTLE: SettleOptions = {
  navigationTimeoutMs: 20_000,
  loadTimeoutMs: 8_000,
  idleMs: 80,
  idleMaxMs: 2_500,
  stallMs: 1_000,
};

/** In-page steps' time limits. Generous: on a busy machine a step that times out loses observations. */
const SCROLL_TIMEOUT_MS = 5_000;
export const COLLECT_TIMEOUT_MS = 10_000;
/** Beyond the interaction budget, for the script to notice it and return. */
export const INTERACTION_MARGIN_MS = 3_000;

/** Resolves once the load event has fired. */
const LOAD_EXPRESSION = `document.readyState === 'complete' || new Promise(function (r) { addEventListener('load', function () { r(true); }, { once: true }); })`;

/** Scrolls down a screen at a time (15 at most); resolves to the number of screens scrolled. */
const SCROLL_EXPRESSION = `(async function () {
        var steps = 0, y = 0;
        var height = function () { return Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, document.body ? document.body.scrollHeight : 0); };
        while (y + innerHeight < height() && steps < 15) {
          y += innerHeight; scrollTo(0, y); steps++;
          await new Promise(function (r) { requestAnimationFrame(function () { r(); }); });
        }
        return steps;
      })()`;

export type StepOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs an in-page step with a time limit; a timeout or an error is the step's outcome, never hidden. */
export async function runStep<T>(
  client: CDPSession,
  expression: string,
  timeoutMs: number,
  what: string,
): Promise<StepOutcome<T>> {
  let timer: NodeJS.Timeout | undefined;
  const call = client
    .send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })
    .then((r): StepOutcome<T> => {
      if (r.exceptionDetails) {
        const text = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
        return { ok: false, reason: `${what} failed: ${String(text).split('\n')[0]}` };
      }
      return { ok: true, value: r.result.value as T };
    })
    .catch((error: unknown): StepOutcome<T> => {
      const message = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        reason: /context was destroyed|navigat/i.test(message)
          ? `${what} failed: the page navigated away`
          : `${what} failed: ${message.split('\n')[0]}`,
      };
    });
  const timeout = new Promise<StepOutcome<T>>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, reason: `${what} timed out after ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([call, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until no request is in flight for idleMs; false when maxMs passed first (a polling page). */
export async function waitForIdle(
  network: NetworkRecorder,
  settle: SettleOptions,
  maxMs: number,
): Promise<boolean> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    const now = Date.now();
    const quiet = now - network.lastActivity;
    // A request without an answer for a while is a slow one (or a worker script whose response only its
    // worker sees): what it leads to is not waited for.
    if (network.pending(now, settle.stallMs) === 0 && quiet >= settle.idleMs) return true;
    await sleep(Math.min(25, Math.max(5, settle.idleMs - quiet)));
  }
  return false;
}

/**
 * Lets a page that reached DOMContentLoaded settle: the load event, network idle, a scroll through (lazy
 * images and frames load when scrolled into view), idle again. `limit` scales a time limit (a retry's
 * patience); what timed out or failed is added to `problems`.
 */
export async function settlePage(
  client: CDPSession,
  network: NetworkRecorder,
  settle: SettleOptions,
  limit: (ms: number) => number,
  problems: string[],
): Promise<void> {
  const loaded = await runStep<boolean>(
    client,
    LOAD_EXPRESSION,
    limit(settle.loadTimeoutMs),
    'waiting for the load event',
  );
  if (!loaded.ok) problems.push(loaded.reason);
  await waitForIdle(network, settle, limit(settle.idleMaxMs));
  // Lazy images and frames load when scrolled into view.
  const scrolled = await runStep<number>(
    client,
    SCROLL_EXPRESSION,
    limit(SCROLL_TIMEOUT_MS),
    'scrolling through the page',
  );
  if (!scrolled.ok) problems.push(scrolled.reason);
  if (scrolled.ok && scrolled.value > 0) {
    await sleep(30);
    await waitForIdle(network, settle, limit(settle.idleMaxMs));
  }
}
