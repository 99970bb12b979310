// What an analysis crawled, page by page (shown as 'Crawled pages'): each URL with its HTTP status, or why it
// could not be loaded, and what it loaded; the resources of the whole crawl grouped by directive. Built by
// the crawler (shared/src/analyses/crawled-pages.ts), bounded here because the crawler runs hostile pages and
// the list is kept as one DynamoDB item beside its analysis (400 KB per item).
import * as z from 'zod';
import { observedDirectiveSchema } from '../csp/artifact';

export const CRAWLED_PAGES_LIMITS = {
  /** Pages listed (failed URLs first, then the others in crawl order). */
  pages: 500,
  /** Distinct resources listed, the most-loaded first. */
  resources: 1000,
  /** Resources listed per page (indices into `resources`). */
  loadedPerPage: 300,
  urlChars: 2048,
  valueChars: 500,
  reasonChars: 500,
  /** The whole list as JSON: well under the item cap, beside the writer's other fields in one request. */
  jsonChars: 200 * 1024,
} as const;
const L = CRAWLED_PAGES_LIMITS;

/** One resource (URL, inline code's hash, eval) under the directive that governs it. */
export const crawledResourceSchema = z.object({
  directive: observedDirectiveSchema,
  value: z.string().max(L.valueChars),
  /** For inline code: its first characters. */
  sample: z.string().max(L.valueChars).optional(),
  /** How many crawled pages loaded it. */
  pages: z.number().int().min(0),
});
export type CrawledResource = z.infer<typeof crawledResourceSchema>;

export const crawledPageSchema = z.object({
  url: z.string().max(L.urlChars),
  /** Where the page ended after redirects, when that is another URL. */
  finalUrl: z.string().max(L.urlChars).optional(),
  /** The HTTP status it answered; 0 when it gave no answer (see `failure`). */
  status: z.number().int().min(0).max(999),
  /** Why the URL could not be captured (no answer, another site, not a page). */
  failure: z.string().max(L.reasonChars).optional(),
  /** Why the capture stopped before everything was recorded. */
  incomplete: z.string().max(L.reasonChars).optional(),
  /** Distinct resources the page loaded (more than `loaded` lists when the list was cut). */
  resourceCount: z.number().int().min(0),
  /** Indices into the list's `resources`. */
  loaded: z.array(z.number().int().min(0)).max(L.loadedPerPage),
});
export type CrawledPage = z.infer<typeof crawledPageSchema>;

export const crawledPagesSchema = z.object({
  pages: z.array(crawledPageSchema).max(L.pages),
  /** Every URL the crawl tried (more than `pages` lists when the list was cut). */
  pagesTotal: z.number().int().min(0),
  resources: z.array(crawledResourceSchema).max(L.resources),
  resourcesTotal: z.number().int().min(0),
});
export type CrawledPages = z.infer<typeof crawledPagesSchema>;

/** A URL the crawl tried but could not capture as a page (with the HTTP status it answered, if any). */
export const crawlFailureSchema = z.object({
  url: z.string(),
  reason: z.string(),
  status: z.number().int().optional(),
});
export type CrawlFailure = z.infer<typeof crawlFailureSchema>;

/** The page answered an error or nothing: its URL is listed, but nothing of it is in the policy. */
export function pageFailed(page: Pick<CrawledPage, 'status' | 'failure'>): boolean {
  return page.failure !== undefined || page.status === 0 || page.status >= 400;
}
