// The stability check (DESIGN.md): after the crawl, a sample of its pages is loaded again in a fresh
// browser context, to find inline code that changes from one load to the next (a per-request token, a
// timestamp), which a hash allow-list could never keep up with. The second load uses another window width
// and pixel density (SECOND_VIEWPORT), so code whose values come from the layout (an editor's measured
// widths) differs too: one load finds both kinds. Only the re-renders' inline code is kept.
import { rerenderLoads } from '@csp/shared/analyses/progress-bands';
import type { Rerender, Viewport } from '@csp/shared/csp/artifact';
import type { BrowserSession, CapturedPage, TabOptions } from './browser-session';
import { samplePages } from './sample';
import type { CrawlState } from './state';

/** The stability check takes at most this share of the time the crawl itself took (at least RERENDER_MIN_MS). */
const RERENDER_TIME_SHARE = 0.35;
const RERENDER_MIN_MS = 20_000;
/**
 * The re-render's window: a laptop at 125 % scaling, against the crawl's 1280 × 900 at 1×. The width
 * crosses the common 992/1024 px breakpoints and re-wraps every line, the fractional density changes
 * device-pixel rounding, so values measured from the layout change; the device pixels to paint stay about
 * the same (a phone's 412 px at 2× scrolls and paints more, for no more to see).
 */
export const SECOND_VIEWPORT: Viewport = { width: 960, height: 720, deviceScaleFactor: 1.25 };

export interface RerenderOptions {
  /** Epoch ms by which the run must have returned. */
  deadline: number;
  /** Time kept free before the deadline for a page in progress. */
  reserve: number;
  /** Tabs working at once (at most one per page of the sample). */
  concurrency: number;
  tabOptions: TabOptions;
  /** Progress: the page being loaded again, and how many are in flight. */
  report: (url: string, inFlight: number) => void;
}

/**
 * Pages the stability check loads again: at least 10 or 20 % (at most 50), spread over the crawl; then, while its time
 * lasts, every other page that has inline code of a shape no page in the sample has (greedily, most new
 * shapes first), so a one-off page with a per-request token is not missed because it was not "typical".
 */
export function rerenderSample(state: CrawlState): string[] {
  const pages = state.pages.filter((p) => p.status < 400 && !p.incomplete);
  const base = samplePages(
    pages.map((p) => p.finalUrl),
    rerenderLoads(pages.length),
  );
  const shapes = new Map<string, Set<string>>();
  for (const page of pages) {
    const set = shapes.get(page.finalUrl) ?? new Set<string>();
    for (const o of page.observations)
      if (o.type === 'inline') set.add(`${o.directive} ${o.shape ?? o.hash}`);
    shapes.set(page.finalUrl, set);
  }
  const covered = new Set<string>();
  for (const url of base) for (const shape of shapes.get(url) ?? []) covered.add(shape);
  const rest = new Set([...shapes.keys()].filter((url) => !base.includes(url)));
  const extra: string[] = [];
  for (;;) {
    let best: string | undefined;
    let bestNew = 0;
    for (const url of rest) {
      let fresh = 0;
      for (const shape of shapes.get(url)!) if (!covered.has(shape)) fresh++;
      if (fresh > bestNew) {
        best = url;
        bestNew = fresh;
      }
    }
    if (!best) break;
    extra.push(best);
    rest.delete(best);
    for (const shape of shapes.get(best)!) covered.add(shape);
  }
  return [...base, ...extra];
}

/**
 * The stability check: the sample loaded again in a fresh browser context (no cookies, cache or storage
 * from the crawl), acted on the same way, keeping only its inline code. Bounded by time: it stops
 * starting pages when its share of the crawl's time is used up, and before the run's deadline.
 */
export async function rerenderPages(
  session: BrowserSession,
  state: CrawlState,
  options: RerenderOptions,
): Promise<void> {
  const queue = state.rerenderQueue ?? [];
  if (queue.length === 0) return;
  const crawlMs = Math.max(0, Date.now() - Date.parse(state.startedAt));
  const { reserve, tabOptions, report } = options;
  const stopAt = Math.min(
    options.deadline - reserve,
    Date.now() + Math.max(RERENDER_MIN_MS, crawlMs * RERENDER_TIME_SHARE),
  );
  const context = await session.freshContext();
  let inFlight = 0;
  try {
    const worker = async () => {
      const tab = session.tabWorker({ ...tabOptions, viewport: SECOND_VIEWPORT }, context);
      try {
        for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
          if (Date.now() >= stopAt) {
            queue.unshift(url);
            return;
          }
          inFlight += 1;
          report(url, inFlight);
          const started = Date.now();
          let result: CapturedPage;
          try {
            result = await tab.visit(url);
          } finally {
            inFlight -= 1;
          }
          state.stats.rerenderMs += Date.now() - started;
          state.stats.quietMs += result.quietMs;
          if (!(result.error && result.status === 0) && !result.incomplete) {
            state.rerenders.push(rerenderOf(url, result));
          }
          report(url, inFlight);
        }
      } finally {
        await tab.close();
      }
    };
    const concurrency = Math.max(1, Math.min(options.concurrency, queue.length));
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
  } finally {
    await context.close().catch(() => {});
  }
  // Out of its time share (not of the run's): the rest of the sample is left, not carried over.
  if (Date.now() >= stopAt && Date.now() + reserve < options.deadline) state.rerenderQueue = [];
}

/** A re-render keeps the page's inline code only (the rest of the crawl already has it). */
function rerenderOf(url: string, result: CapturedPage): Rerender {
  const inline: Rerender['inline'] = [];
  for (const o of result.observations) {
    if (o.type !== 'inline') continue;
    inline.push({
      directive: o.directive,
      hash: o.hash,
      ...(o.sample !== undefined ? { sample: o.sample } : {}),
      ...(o.shape !== undefined ? { shape: o.shape } : {}),
    });
  }
  return { page: url, inline, viewport: SECOND_VIEWPORT };
}
