// From the crawl forms' text fields to the API's crawl request (spec section 5). Defaults and bounds come
// from CRAWL_LIMITS, which the API's schema and the crawler read too.
import type { PolicyTarget } from '@csp/shared/csp/policy';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';

/** One entry per line: trimmed, blank lines dropped. */
export function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The fields of a crawl form, as typed. */
export interface CrawlFormFields {
  maxPages: string;
  crawlDelay: string;
  userAgent: string;
  urlList: string;
  headerBudget: string;
  policyTarget: PolicyTarget;
}

export const DEFAULT_CRAWL_FIELDS: CrawlFormFields = {
  maxPages: String(CRAWL_LIMITS.maxPages.default),
  crawlDelay: String(CRAWL_LIMITS.crawlDelay.default),
  userAgent: '',
  urlList: '',
  headerBudget: String(CRAWL_LIMITS.headerBudget.default),
  policyTarget: 'header',
};

/** What is validated with crawlRequestSchema: numbers stay text so the schema reports what was typed. */
export interface CrawlRequestDraft {
  url?: string;
  urlList: string[];
  sitemapContent?: string;
  maxPages: string;
  crawlDelay: string;
  userAgent: string;
  headerBudget: string;
  policyTarget: string;
}

export function crawlRequestDraft(
  fields: CrawlFormFields,
  extra: { url?: string; sitemapContent?: string },
): CrawlRequestDraft {
  const draft: CrawlRequestDraft = {
    urlList: splitLines(fields.urlList),
    maxPages: fields.maxPages.trim(),
    crawlDelay: fields.crawlDelay.trim(),
    userAgent: fields.userAgent.trim(),
    headerBudget: fields.headerBudget.trim(),
    policyTarget: fields.policyTarget,
  };
  const url = extra.url?.trim();
  if (url) draft.url = url;
  if (extra.sitemapContent?.trim()) draft.sitemapContent = extra.sitemapContent;
  return draft;
}

/** Spec: at least one of url, a non-empty urlList or sitemapContent. */
export function hasCrawlTarget(draft: Pick<CrawlRequestDraft, 'url' | 'urlList' | 'sitemapContent'>) {
  return Boolean(draft.url) || draft.urlList.length > 0 || Boolean(draft.sitemapContent?.trim());
}

/** Domain screen: the sitemap URLs, one per line, sent as sitemapContent (undefined when there are none). */
export function sitemapLines(text: string): string | undefined {
  const lines = splitLines(text);
  return lines.length > 0 ? lines.join('\n') : undefined;
}
