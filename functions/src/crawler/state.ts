// The crawl's job and its resumable state. The state is plain JSON (zod-checked when loaded), so a crawl
// can stop before a Lambda deadline, be stored, and continue in another invocation where it left off.
import { pageArtifactSchema } from '@csp/shared/csp/artifact';
import { z } from 'zod';

export const crawlJobSchema = z.object({
  /** The analysis this crawl belongs to (names checkpoints in the blob store). */
  analysisId: z.string().optional(),
  url: z.string().optional(),
  urlList: z.array(z.string()).default([]),
  sitemapContent: z.string().optional(),
  maxPages: z.number().int().min(1).max(500).default(50),
  crawlDelay: z.number().int().min(0).max(5000).default(1000),
  userAgent: z.string().default(''),
});
export type CrawlJob = z.input<typeof crawlJobSchema>;
export type ParsedCrawlJob = z.infer<typeof crawlJobSchema>;

export const frontierItemSchema = z.object({
  url: z.string(),
  /** normalizeUrl(url): what "the same page" means. */
  key: z.string(),
  /** Link hops from a seed (seeds: start URL, URL list, sitemap entries). */
  depth: z.number().int(),
  via: z.enum(['start', 'list', 'sitemap', 'link']),
});
export type FrontierItem = z.infer<typeof frontierItemSchema>;

export const crawlStateSchema = z.object({
  version: z.literal(1),
  /** Origin 'self' stands for; the start URL's origin after its redirects. */
  origin: z.string(),
  discovered: z.boolean(),
  /** Pages still to visit, breadth first. */
  frontier: z.array(frontierItemSchema),
  /** Keys of every page ever queued or visited: never the same page twice. */
  seen: z.array(z.string()),
  pages: z.array(pageArtifactSchema),
  errors: z.array(z.string()),
  /** Pages attempted (captured or failed); bounded by maxPages. */
  pagesDone: z.number().int(),
  /** Last progress reported (0–99 while crawling), so it never goes back when more pages are found. */
  progress: z.number().int(),
  /** crawlDelay schedule: host → epoch ms of its next allowed request. */
  hostNextAt: z.record(z.string(), z.number()),
  /** Discovered URLs on other origins, left out (reported once, as a count). */
  offSite: z.number().int(),
  /** Invocations that worked on this crawl (continuations + 1). */
  runs: z.number().int(),
  startedAt: z.string(),
});
export type CrawlState = z.infer<typeof crawlStateSchema>;

export function parseCrawlState(value: unknown): CrawlState {
  return crawlStateSchema.parse(value);
}
