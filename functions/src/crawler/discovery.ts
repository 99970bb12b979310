// Discovery: what to crawl before following links. The start URL (its redirects settle the origin 'self'
// stands for), the manual URL list, then sitemaps — robots.txt Sitemap: lines, /sitemap.xml, uploaded
// sitemap content (XML, or sitemap URLs one per line), sitemap indexes and .xml.gz — up to maxPages.
// Every fetch goes through the SSRF guard and the crawl delay of its host, with the crawl's user agent.
import type { Frontier } from './frontier';
import type { TargetGuard } from './guard';
import { BlockedTargetError, guardedFetch } from './guarded-fetch';
import type { HostScheduler } from './politeness';
import { sitemapsFromRobots } from './robots';
import { parseSitemap, parseSitemapContent } from './sitemap';
import type { CrawlState, ParsedCrawlJob } from './state';
import { originOf } from './url-normalize';

/** Sitemap files fetched at most per crawl (indexes can fan out widely). */
const MAX_SITEMAP_FETCHES = 25;

export interface DiscoveryContext {
  job: ParsedCrawlJob;
  state: CrawlState;
  frontier: Frontier;
  guard: TargetGuard;
  scheduler: HostScheduler;
  /** Hosts the guard refused: nothing more is requested from them. */
  refusedHosts: Set<string>;
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

export async function discover(ctx: DiscoveryContext): Promise<void> {
  const { job, state, frontier, guard, scheduler, refusedHosts } = ctx;
  const fetchOptions = {
    guard,
    userAgent: job.userAgent,
    beforeRequest: (url: URL) => scheduler.wait(url.host),
  };
  const refuse = (error: BlockedTargetError, url: string) => {
    const host = new URL(url).host;
    refusedHosts.add(host);
    if (!state.errors.includes(error.message)) state.errors.push(error.message);
    frontier.dropHost(host);
  };

  // 1. The start URL: where its redirects land is the site's origin (example.com → https://www.example.com).
  if (job.url) {
    try {
      const start = await guardedFetch(job.url, { ...fetchOptions, maxBytes: 64 * 1024 });
      const finalOrigin = originOf(start.url);
      if (finalOrigin && finalOrigin !== state.origin) state.origin = finalOrigin;
    } catch (error) {
      if (error instanceof BlockedTargetError) {
        // The analysed site itself is refused: nothing of it will be requested, by us or the browser.
        refuse(error, job.url);
        return;
      }
      // The browser will try again and record the failure against the page.
    }
    frontier.add(job.url, 'start', 0);
  }
  for (const url of job.urlList) frontier.add(url, 'list', 0);

  // 2. Sitemaps: uploaded ones first (the user chose them), then robots.txt's, then /sitemap.xml.
  const queue: { url: string; reportMissing: boolean }[] = [];
  if (job.sitemapContent?.trim()) {
    const content = parseSitemapContent(job.sitemapContent);
    if (content.sitemap?.kind === 'urlset')
      for (const loc of content.sitemap.locs) frontier.add(loc, 'sitemap', 0);
    if (content.sitemap?.kind === 'index') {
      for (const loc of content.sitemap.locs) queue.push({ url: loc, reportMissing: true });
    }
    for (const url of content.sitemapUrls) queue.push({ url, reportMissing: true });
  }
  const robotsUrl = `${state.origin}/robots.txt`;
  if (!refusedHosts.has(new URL(robotsUrl).host)) {
    try {
      const robots = await guardedFetch(robotsUrl, { ...fetchOptions, maxBytes: 512 * 1024 });
      if (robots.status === 200) {
        for (const url of sitemapsFromRobots(robots.body.toString('utf8'), robots.url)) {
          queue.push({ url, reportMissing: true });
        }
      }
    } catch (error) {
      if (error instanceof BlockedTargetError) refuse(error, robotsUrl);
    }
  }
  queue.push({ url: `${state.origin}/sitemap.xml`, reportMissing: false });

  const fetched = new Set<string>();
  while (queue.length > 0 && fetched.size < MAX_SITEMAP_FETCHES && !frontier.full) {
    const { url, reportMissing } = queue.shift()!;
    if (fetched.has(url)) continue;
    fetched.add(url);
    let host: string;
    try {
      host = new URL(url).host;
    } catch {
      continue;
    }
    if (refusedHosts.has(host)) continue;
    try {
      const res = await guardedFetch(url, fetchOptions);
      if (res.status !== 200) {
        if (reportMissing) state.errors.push(`Sitemap ${url}: HTTP ${res.status}`);
        continue;
      }
      const sitemap = parseSitemap(res.body.toString('utf8'));
      if (sitemap.kind === 'index')
        for (const loc of sitemap.locs) queue.push({ url: loc, reportMissing: true });
      else for (const loc of sitemap.locs) frontier.add(loc, 'sitemap', 0);
    } catch (error) {
      if (error instanceof BlockedTargetError) refuse(error, url);
      else if (reportMissing) state.errors.push(`Sitemap ${url}: ${describe(error)}`);
    }
  }
  for (const host of refusedHosts) frontier.dropHost(host);
}
