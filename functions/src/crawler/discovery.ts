// Discovery: what to crawl before following links. The start URL (its redirects settle the origin 'self'
// stands for), the manual URL list, then sitemaps — robots.txt Sitemap: lines, /sitemap.xml, uploaded
// sitemap content (XML, or sitemap URLs one per line), sitemap indexes and .xml.gz — up to maxPages.
// Every fetch goes through the SSRF guard and the crawl delay of its host, with the crawl's user agent, and
// is bounded in time (its own budget, never past the crawl's deadline) and in size (the sitemaps protocol's).
import type { Frontier } from './frontier';
import type { TargetGuard } from './guard';
import {
  BlockedTargetError,
  BodyTooLargeError,
  FetchDeadlineError,
  type GuardedFetchOptions,
  guardedFetch,
  guardedRequest,
} from './guarded-fetch';
import type { HostScheduler } from './politeness';
import { sitemapsFromRobots } from './robots';
import { MAX_SITEMAP_BYTES, type ParsedSitemap, parseSitemapContent, SitemapReader } from './sitemap';
import { SitemapQueue } from './sitemap-queue';
import type { CrawlState, ParsedCrawlJob } from './state';
import { originOf } from './url-normalize';

/** Sitemap files fetched at most per crawl (indexes can fan out widely). */
export const MAX_SITEMAP_FETCHES = 25;
/**
 * Longest one request may take, whatever time the crawl has left: a server that answers slowly, or drips
 * bytes, costs discovery this much and no more. A sitemap may be 50 MB; the start URL and robots.txt are small.
 */
const PROBE_TIMEOUT_MS = 15_000;
const SITEMAP_TIMEOUT_MS = 30_000;

export interface DiscoveryContext {
  job: ParsedCrawlJob;
  state: CrawlState;
  frontier: Frontier;
  guard: TargetGuard;
  scheduler: HostScheduler;
  /** Hosts the guard refused: nothing more is requested from them. */
  refusedHosts: Set<string>;
  /** Epoch ms by which discovery returns, reporting what it could not read (none: no crawl deadline). */
  deadline?: number;
}

/** The origin an analysis is about, before any request: the start URL's, else the first listed URL's. */
export function initialOrigin(job: ParsedCrawlJob): string | null {
  const candidates = [job.url, ...job.urlList];
  if (job.sitemapContent) {
    const content = parseSitemapContent(job.sitemapContent);
    candidates.push(...(content.sitemap?.locs ?? []), ...content.sitemapUrls);
  }
  for (const candidate of candidates) {
    const origin = candidate ? originOf(candidate) : null;
    if (origin) return origin;
  }
  return null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface FetchedSitemap {
  status: number;
  /** Empty unless the status is 200; partial when reading stopped early (then `problems` or `error` say why). */
  sitemap: ParsedSitemap;
  /** What cut the download short (deadline, lost connection): the URLs read before it are kept. */
  error?: unknown;
}

const MB = 1024 * 1024;

/**
 * Fetches one sitemap and parses it as it arrives (gunzipped on the fly for .xml.gz), so neither a huge
 * file nor a gzip bomb is ever held whole: reading stops at MAX_SITEMAP_BYTES uncompressed, at the URL cap,
 * at the first XML error, and at `options.deadline`. Throws only when no response came (refused, timed out,
 * network error).
 */
export async function fetchSitemap(url: string, options: GuardedFetchOptions): Promise<FetchedSitemap> {
  const res = await guardedRequest(url, { ...options, maxBytes: MAX_SITEMAP_BYTES });
  try {
    if (res.status !== 200) return { status: res.status, sitemap: { kind: 'other', locs: [] } };
    const reader = new SitemapReader();
    try {
      for await (const chunk of res.body) if (!reader.write(chunk)) break;
    } catch (error) {
      if (!(error instanceof BodyTooLargeError)) return { status: res.status, sitemap: reader.cut(), error };
      const sitemap = reader.cut(
        `larger than ${MAX_SITEMAP_BYTES / MB} MB uncompressed (the sitemaps protocol's limit); ` +
          `read up to there (${reader.urlCount} URLs)`,
      );
      return { status: res.status, sitemap };
    }
    return { status: res.status, sitemap: reader.end() };
  } finally {
    res.close();
  }
}

export async function discover(ctx: DiscoveryContext): Promise<void> {
  const { job, state, frontier, guard, scheduler, refusedHosts, deadline } = ctx;
  const crawlDeadline = deadline ?? Number.POSITIVE_INFINITY;
  /** Options for one request: its own time budget, cut to what the crawl has left. */
  const fetchOptions = (budgetMs: number): GuardedFetchOptions => {
    const fetchDeadline = Math.min(Date.now() + budgetMs, crawlDeadline);
    return {
      guard,
      userAgent: job.userAgent,
      deadline: fetchDeadline,
      beforeRequest: async (url: URL) => {
        // A crawl delay that would end past the deadline is not waited out.
        if (Date.now() + scheduler.readyIn(url.host) >= fetchDeadline) {
          throw new FetchDeadlineError(fetchDeadline, 'the crawl delay would end past the deadline');
        }
        await scheduler.wait(url.host);
      },
    };
  };
  /** Set once the crawl's deadline is reached (checked before each request, or a request cut by it). */
  let outOfTime = false;
  const timeIsUp = (): boolean => {
    if (Date.now() >= crawlDeadline) outOfTime = true;
    return outOfTime;
  };
  const atCrawlDeadline = (error: unknown) =>
    error instanceof FetchDeadlineError && error.deadline >= crawlDeadline;
  const refuse = (error: BlockedTargetError, url: string) => {
    const host = new URL(url).host;
    refusedHosts.add(host);
    if (!state.errors.includes(error.message)) state.errors.push(error.message);
    frontier.dropHost(host);
  };

  // 1. The start URL: where its redirects land is the site's origin (example.com → https://www.example.com).
  if (job.url) {
    if (!timeIsUp()) {
      try {
        const start = await guardedFetch(job.url, { ...fetchOptions(PROBE_TIMEOUT_MS), maxBytes: 64 * 1024 });
        const finalOrigin = originOf(start.url);
        if (finalOrigin && finalOrigin !== state.origin) state.origin = finalOrigin;
      } catch (error) {
        if (error instanceof BlockedTargetError) {
          // The analysed site itself is refused: nothing of it will be requested, by us or the browser.
          refuse(error, job.url);
          return;
        }
        if (atCrawlDeadline(error)) outOfTime = true;
        // Otherwise the browser will try again and record the failure against the page.
      }
    }
    frontier.add(job.url, 'start', 0);
  }
  for (const url of job.urlList) frontier.add(url, 'list', 0);

  // 2. Sitemaps: uploaded ones first (the user chose them), then robots.txt's, then /sitemap.xml.
  const queue = new SitemapQueue();
  if (job.sitemapContent?.trim()) {
    const content = parseSitemapContent(job.sitemapContent);
    if (content.sitemap?.kind === 'urlset')
      for (const loc of content.sitemap.locs) frontier.add(loc, 'sitemap', 0);
    if (content.sitemap?.kind === 'index') {
      for (const loc of content.sitemap.locs) queue.add(loc, true);
    }
    for (const problem of content.sitemap?.problems ?? []) state.errors.push(`Uploaded sitemap: ${problem}`);
    for (const url of content.sitemapUrls) queue.add(url, true);
  }
  const robotsUrl = `${state.origin}/robots.txt`;
  if (!timeIsUp() && !refusedHosts.has(new URL(robotsUrl).host)) {
    try {
      const robots = await guardedFetch(robotsUrl, {
        ...fetchOptions(PROBE_TIMEOUT_MS),
        maxBytes: 512 * 1024,
      });
      if (robots.status === 200) {
        for (const url of sitemapsFromRobots(robots.body.toString('utf8'), robots.url)) {
          queue.add(url, true);
        }
      }
    } catch (error) {
      if (error instanceof BlockedTargetError) refuse(error, robotsUrl);
      else if (atCrawlDeadline(error)) outOfTime = true;
    }
  }
  queue.add(`${state.origin}/sitemap.xml`, false);

  let fetches = 0;
  /** The sitemap the deadline cut short, if any: counted as not read. */
  let interrupted = 0;
  while (queue.size > 0 && fetches < MAX_SITEMAP_FETCHES && !frontier.full && !timeIsUp()) {
    const { url, reportMissing } = queue.take()!;
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      continue;
    }
    if (refusedHosts.has(host)) continue;
    fetches += 1;
    try {
      const { status, sitemap, error } = await fetchSitemap(url, fetchOptions(SITEMAP_TIMEOUT_MS));
      if (status !== 200) {
        if (reportMissing) state.errors.push(`Sitemap ${url}: HTTP ${status}`);
        continue;
      }
      // What was read is used even when the rest could not be.
      if (sitemap.kind === 'index') for (const loc of sitemap.locs) queue.add(loc, true);
      else for (const loc of sitemap.locs) frontier.add(loc, 'sitemap', 0);
      // A probed /sitemap.xml that is no sitemap at all (a site's HTML catch-all page) is not worth a line.
      if (reportMissing || sitemap.kind !== 'other') {
        for (const problem of sitemap.problems ?? []) state.errors.push(`Sitemap ${url}: ${problem}`);
      }
      if (error !== undefined) throw error;
    } catch (error) {
      if (error instanceof BlockedTargetError) refuse(error, url);
      else if (atCrawlDeadline(error)) {
        outOfTime = true;
        interrupted = 1;
      } else if (reportMissing) state.errors.push(`Sitemap ${url}: ${describe(error)}`);
    }
  }
  // Sitemaps queued and never requested: said, so a user knows pages may be missing and why.
  let pending = 0;
  for (const { url } of queue.remaining()) {
    const host = URL.canParse(url) ? new URL(url).host : null;
    if (host !== null && !refusedHosts.has(host)) pending += 1;
  }
  const notRead = pending + interrupted;
  if (outOfTime) {
    if (notRead > 0)
      state.errors.push(`Discovery stopped at the crawl's deadline: ${notRead} sitemap(s) not read`);
  } else if (pending > 0 && !frontier.full) {
    state.errors.push(
      `Sitemaps: ${pending} more sitemap file(s) not read (at most ${MAX_SITEMAP_FETCHES} are read per crawl)`,
    );
  }
  for (const host of refusedHosts) frontier.dropHost(host);
}
