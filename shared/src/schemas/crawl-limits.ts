// The limits of a crawl request, defined once: the API's schema, the crawler's job schema and the crawl
// forms (hints, min/max attributes) all read them from here.
import { NGINX_PROXY_BUFFER } from '../csp/header-limits';

export const CRAWL_LIMITS = {
  maxPages: { min: 1, max: 500, default: 50 },
  crawlDelay: { min: 0, max: 5000, default: 1000 },
  /** Manual URL list entries. */
  urlList: { max: 500 },
  /** Uploaded sitemap text, kept in the analysis item (400 KB DynamoDB limit). */
  sitemapContent: { maxChars: 300_000 },
  userAgent: { maxChars: 512 },
  /**
   * Header budget in bytes for the whole `Content-Security-Policy: …` line. nginx's default proxy buffer
   * (4 KB on most platforms) fails a response whose headers do not fit, so 4,096 is the default.
   */
  headerBudget: { min: 1024, max: 16_384, default: NGINX_PROXY_BUFFER },
  /** Analyses of one user that run at once; more wait, queued, so one tenant cannot starve the others. */
  runningAnalysesPerUser: 2,
  /** Analyses of one user created and not yet crawling (pending or queued); more are refused (429). */
  waitingAnalysesPerUser: 20,
  /** Pages one user's analyses may reserve per UTC day, unless the deployment sets CRAWL_DAILY_PAGES. */
  dailyPagesPerUser: { min: 1, default: 5000 },
} as const;
