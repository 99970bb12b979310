// The crawl's job and its resumable state. The state is plain JSON (zod-checked when loaded), so a crawl
// can stop before a Lambda deadline, be stored, and continue in another invocation where it left off.
import { faviconSchema, pageArtifactSchema, rerenderSchema } from '@csp/shared/csp/artifact';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { crawlFailureSchema } from '@csp/shared/schemas/crawled-pages';
import { emptyTrustedTypesTally, trustedTypesTallySchema } from '@csp/shared/trusted-types/dry-run';
import { pageWatchSchema } from '@csp/shared/watch/run-snapshot';
import * as z from 'zod';

const { maxPages, crawlDelay } = CRAWL_LIMITS;

/** What the crawler is asked to do: the API's crawl request (already validated there) and its analysis. */
export const crawlJobSchema = z.object({
  /** The analysis this crawl belongs to (for logs). */
  analysisId: z.string().optional(),
  url: z.string().optional(),
  urlList: z.array(z.string()).max(CRAWL_LIMITS.urlList.max).default([]),
  sitemapContent: z.string().optional(),
  maxPages: z.number().int().min(maxPages.min).max(maxPages.max).default(maxPages.default),
  crawlDelay: z.number().int().min(crawlDelay.min).max(crawlDelay.max).default(crawlDelay.default),
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
  /** What the watch keeps of each captured page (run-snapshot.ts), in the order of `pages`. */
  watch: z.array(pageWatchSchema).default([]),
  /** The Trusted Types dry run of the pages captured so far (shared/src/trusted-types/dry-run.ts). */
  trustedTypes: trustedTypesTallySchema.default(emptyTrustedTypesTally),
  errors: z.array(z.string()),
  /** URLs tried that could not be captured as pages (no answer, another site): listed as failed. */
  failures: z.array(crawlFailureSchema).default([]),
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
  /** Pages still to load a second time for the stability check (null until the crawl proper is done). */
  rerenderQueue: z.array(z.string()).nullable().default(null),
  /** Pages loaded a second time, with their inline code. */
  rerenders: z.array(rerenderSchema).default([]),
  /** `<link rel~=icon>` hrefs the pages named (favicons.ts), checked once the crawl is done. */
  iconLinks: z.array(z.string()).default([]),
  /** Whether each icon and /favicon.ico is served; absent until checked. */
  favicons: z.array(faviconSchema).optional(),
  /** What acting on pages did, and the time the extra phases took (ms, summed over tabs). */
  stats: z
    .object({
      interactionMs: z.number().default(0),
      /** Waiting for pages to be quiet after load, scrolling and acting (crawl and re-render). */
      quietMs: z.number().default(0),
      rerenderMs: z.number().default(0),
      writesAnswered: z.number().int().default(0),
      navigationsBlocked: z.number().int().default(0),
    })
    .default({
      interactionMs: 0,
      quietMs: 0,
      rerenderMs: 0,
      writesAnswered: 0,
      navigationsBlocked: 0,
    }),
});
export type CrawlState = z.infer<typeof crawlStateSchema>;
export type CrawlStateInput = z.input<typeof crawlStateSchema>;

export function parseCrawlState(value: unknown): CrawlState {
  return crawlStateSchema.parse(value);
}
