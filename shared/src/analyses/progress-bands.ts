// One percent for a whole analysis, shared out among its phases by the time each takes. A page load costs
// about the same wherever it happens (a crawled page, the same page loaded again for the stability check, a
// page loaded with the policy to verify it), so each phase's band is its share of the page loads the
// analysis will make, known from the pages found so far — except that the crawl proper waits the crawl
// delay between two requests to the site, and the stability check and the verification (a sample of pages
// already fetched, loaded in parallel) do not: a crawled page weighs its delay when that is longer than a
// load. Fixed bands (the crawl 2–80 %, verification 90–99 %) made a six-page crawl reach 80 % in 3 s and
// sit at 90 % through the verification that took most of the run; page loads alone made the same crawl a
// third of the bar for three quarters of the time, and the rest of the bar go by in one read.
import type { AnalysisStage } from '../schemas/analysis';
import { CRAWL_LIMITS } from '../schemas/crawl-limits';

/** The stability check loads again at least this many crawled pages (all of them when fewer)… */
export const RERENDER_MIN_PAGES = 10;
/** …or this share of them, when more… */
export const RERENDER_SHARE = 0.2;
/**
 * …but no more than this many spread over the crawl. Past it the sample only adds pages whose inline code
 * has a shape some sampled page has (the same template again), and unstable code is marked by shape on
 * every page; pages with a shape not yet sampled are added beyond it (re-render.ts) while time lasts.
 */
export const RERENDER_MAX_SPREAD = 50;
/** The verification loads at most this many crawled pages with the policy. */
export const VERIFY_SAMPLE_PAGES = 10;

/**
 * A page load's share of the crawl's time: about 2 s in one of the crawler's 5 tabs. A crawl delay longer
 * than this paces the crawl instead (one request to the site per delay), and its pages weigh that much more.
 */
export const PAGE_LOAD_SHARE_MS = 400;
/**
 * Before the first page is crawled the site's size is unknown (no sitemap listed more): its progress is
 * shown as one page of this many (at most maxPages), not as one of one, which claimed a third of the crawl
 * at once and then stood still while the links found filled the band again.
 */
export const UNKNOWN_SITE_PAGES = 10;

/** Finding the pages (robots.txt, sitemaps) before the first page is crawled. */
const DISCOVERING_END = 2;
/** The last percent before completed (100 is only ever the completed analysis). */
const WORK_END = 99;
/** Generating the policy takes about half a page load. */
const GENERATING_LOADS = 0.5;

export type StageBands = Record<AnalysisStage, readonly [number, number]>;

/** Pages the stability check loads again for `pages` crawled ones. */
export const rerenderLoads = (pages: number) =>
  Math.min(
    pages,
    Math.max(RERENDER_MIN_PAGES, Math.min(RERENDER_MAX_SPREAD, Math.ceil(pages * RERENDER_SHARE))),
  );

/** What a crawled page weighs, in page loads, for a crawl delay of `crawlDelayMs`. */
export const crawledPageLoads = (crawlDelayMs: number) =>
  Math.max(1, (Number.isFinite(crawlDelayMs) ? crawlDelayMs : 0) / PAGE_LOAD_SHARE_MS);

export interface BandOptions {
  /** False when the stability check does not run. */
  rerender?: boolean;
  /** The analysis's crawl delay (the default when not given). */
  crawlDelayMs?: number;
}

/** Where each stage's percent starts and ends for an analysis of `pages` pages (found so far, or crawled). */
export function stageBands(
  pages: number,
  { rerender = true, crawlDelayMs = CRAWL_LIMITS.crawlDelay.default }: BandOptions = {},
): StageBands {
  const n = Math.max(1, Number.isFinite(pages) ? pages : 1);
  const loads: [AnalysisStage, number][] = [
    ['crawling', n * crawledPageLoads(crawlDelayMs)],
    ['rerendering', rerender ? rerenderLoads(n) : 0],
    ['generating', GENERATING_LOADS],
    ['verifying', Math.min(n, VERIFY_SAMPLE_PAGES)],
  ];
  const total = loads.reduce((sum, [, l]) => sum + l, 0);
  const bands: Partial<Record<AnalysisStage, readonly [number, number]>> = {
    queued: [0, 0],
    discovering: [0, DISCOVERING_END],
  };
  let at = DISCOVERING_END;
  for (const [stage, l] of loads) {
    const end = at + ((WORK_END - DISCOVERING_END) * l) / total;
    bands[stage] = [at, end];
    at = end;
  }
  return bands as StageBands;
}

/** The percent for `fraction` (0–1) of `stage` done, in `bands`: whole numbers, never past the band. */
export function stagePercent(bands: StageBands, stage: AnalysisStage, fraction: number): number {
  const [start, end] = bands[stage];
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return Math.floor(start + (end - start) * f);
}
