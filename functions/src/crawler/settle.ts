// The steps that let a page settle before it is collected: the load event, quiet (no request in flight,
// no DOM change, no animation frame or short timer pending, for a short window), a scroll through the page
// and its scrollable panes (lazy images and frames load when scrolled into view), quiet again. Each
// in-page step has a time limit, and a step that times out or fails says so: the capture is then
// `incomplete`, never silently thin. A page that never gets quiet (a poll, an endless animation) is
// waited for up to idleMaxMs, then taken as it is.
import type { CDPSession } from 'puppeteer-core';
import { whenCrashed } from './crash-signal';
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
  /** The page counts as quiet after this long without a DOM change, animation frame or short timer. */
  quietMs: number;
}

export const DEFAULT_SETTLE: SettleOptions = {
  navigationTimeoutMs: 20_000,
  loadTimeoutMs: 8_000,
  // No longer than the page's own quiet window: it is waited for at the same time and sees what a script
  // is about to request (a timer, a frame, a DOM change); this one only covers the DevTools events' delay
  // (a request a response's handler starts). 80 ms cost 30 ms on every page for nothing a test could find.
  idleMs: 50,
  idleMaxMs: 2_500,
  stallMs: 1_000,
  quietMs: 50,
};

/** In-page steps' time limits. Generous: on a busy machine a step that times out loses observations. */
const SCROLL_TIMEOUT_MS = 5_000;
export const COLLECT_TIMEOUT_MS = 10_000;
/** Beyond the interaction budget, for the script to notice it and return. */
export const INTERACTION_MARGIN_MS = 3_000;

/** Resolves once the load event has fired. */
const LOAD_EXPRESSION = `document.readyState === 'complete' || new Promise(function (r) { addEventListener('load', function () { r(true); }, { once: true }); })`;

/**
 * Scrolls down a screen at a time (15 at most), then through each scrollable pane (a sidebar, a chat
 * log, a code view: 20 panes, 10 steps each at most); resolves to the number of steps scrolled.
 */
const SCROLL_EXPRESSION = `(async function () {
        var steps = 0, y = 0;
        var frame = function () { return new Promise(function (r) { requestAnimationFrame(function () { r(); }); }); };
        var height = function () { return Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, document.body ? document.body.scrollHeight : 0); };
        while (y + innerHeight < height() && steps < 15) {
          y += innerHeight; scrollTo(0, y); steps++;
          await frame();
        }
        var all = document.body ? document.body.getElementsByTagName('*') : [];
        var panes = [];
        for (var i = 0; i < all.length && i < 5000 && panes.length < 20; i++) {
          var el = all[i];
          if (el.scrollHeight > el.clientHeight + 16 && el.clientHeight > 0 && /^(auto|scroll|overlay)$/.test(getComputedStyle(el).overflowY)) panes.push(el);
        }
        for (var p = 0; p < panes.length; p++) {
          var pane = panes[p];
          for (var k = 0; k < 10 && pane.scrollTop + pane.clientHeight < pane.scrollHeight - 1; k++) {
            pane.scrollTop += pane.clientHeight; steps++;
            await frame();
          }
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
  const crashed = whenCrashed(client).then(
    (): StepOutcome<T> => ({ ok: false, reason: `${what} failed: the page crashed` }),
  );
  try {
    return await Promise.race([call, timeout, crashed]);
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

/** Builds the in-page expression that waits for quiet (InstrumentChannel.quietExpression). */
export type QuietExpression = (windowMs: number, maxMs: number) => string;

/**
 * Waits until the page is quiet: no request in flight for idleMs and, at the same time, no DOM change,
 * animation frame or short timer for quietMs. The two are waited for side by side (most of the time one
 * of them holds already); a request that started meanwhile means another round. Returns the time it
 * took; `quiet` is false when maxMs passed first (a polling or animating page) or the page could not be
 * asked.
 */
export async function waitForQuiet(
  client: CDPSession,
  network: NetworkRecorder,
  settle: SettleOptions,
  quietExpression: QuietExpression,
  maxMs: number,
): Promise<{ quiet: boolean; ms: number }> {
  const started = Date.now();
  const end = started + maxMs;
  const done = (quiet: boolean) => ({ quiet, ms: Date.now() - started });
  for (;;) {
    const askedAt = Date.now();
    const left = end - askedAt;
    const both = Promise.all([
      waitForIdle(network, settle, left),
      runStep<boolean>(
        client,
        quietExpression(settle.quietMs, left),
        left + COLLECT_TIMEOUT_MS,
        'waiting for the page to be quiet',
      ),
    ]);
    // A crashed page has nothing left to wait for (its requests may never be answered).
    const outcome = await Promise.race([both, whenCrashed(client).then(() => null)]);
    if (!outcome) return done(false);
    const [idle, page] = outcome;
    if (!idle || !page.ok || page.value !== true) return done(false);
    // Quiet in the page while no request started since it was asked: both at once.
    if (network.lastActivity < askedAt) return done(true);
    if (Date.now() >= end) return done(false);
  }
}

/**
 * Lets a page that reached DOMContentLoaded settle: the load event, quiet, a scroll through the page and
 * its panes (lazy images and frames load when scrolled into view), quiet again. `limit` scales a time limit
 * (a retry's patience); what timed out or failed is added to `problems`. Returns the time spent waiting
 * for quiet.
 */
export async function settlePage(
  client: CDPSession,
  network: NetworkRecorder,
  settle: SettleOptions,
  quietExpression: QuietExpression,
  limit: (ms: number) => number,
  problems: string[],
): Promise<number> {
  const loaded = await runStep<boolean>(
    client,
    LOAD_EXPRESSION,
    limit(settle.loadTimeoutMs),
    'waiting for the load event',
  );
  if (!loaded.ok) problems.push(loaded.reason);
  let waited = (await waitForQuiet(client, network, settle, quietExpression, limit(settle.idleMaxMs))).ms;
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
    waited += (await waitForQuiet(client, network, settle, quietExpression, limit(settle.idleMaxMs))).ms;
  }
  return waited;
}
