import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { describe, expect, it } from 'vitest';
import {
  crawlRequestDraft,
  DEFAULT_CRAWL_FIELDS,
  hasCrawlTarget,
  sitemapLines,
  splitLines,
} from './crawl-request';

describe('crawl form', () => {
  it('splits a list by line, trimmed, blank lines dropped', () => {
    expect(splitLines('  https://a.example/x \r\n\n\thttps://b.example\n   \n')).toEqual([
      'https://a.example/x',
      'https://b.example',
    ]);
    expect(sitemapLines(' https://a.example/sitemap.xml \n\n')).toBe('https://a.example/sitemap.xml');
    expect(sitemapLines(' \n ')).toBeUndefined();
  });

  it('needs a URL, a non-empty URL list or sitemap content', () => {
    expect(hasCrawlTarget(crawlRequestDraft(DEFAULT_CRAWL_FIELDS, { url: '  ' }))).toBe(false);
    expect(hasCrawlTarget(crawlRequestDraft({ ...DEFAULT_CRAWL_FIELDS, urlList: '\n' }, {}))).toBe(false);
    expect(hasCrawlTarget(crawlRequestDraft(DEFAULT_CRAWL_FIELDS, { sitemapContent: '<urlset/>' }))).toBe(
      true,
    );
    expect(hasCrawlTarget(crawlRequestDraft(DEFAULT_CRAWL_FIELDS, { url: 'https://a.example' }))).toBe(true);
  });

  it('gives crawlRequestSchema what it validates, with the spec defaults', () => {
    const draft = crawlRequestDraft(
      { ...DEFAULT_CRAWL_FIELDS, urlList: 'https://a.example/1\n\nhttps://a.example/2' },
      { url: ' https://a.example ' },
    );
    expect(crawlRequestSchema.parse(draft)).toEqual({
      url: 'https://a.example',
      urlList: ['https://a.example/1', 'https://a.example/2'],
      maxPages: CRAWL_LIMITS.maxPages.default,
      crawlDelay: CRAWL_LIMITS.crawlDelay.default,
      userAgent: '',
      headerBudget: CRAWL_LIMITS.headerBudget.default,
      policyTarget: 'header',
    });
    const bad = crawlRequestSchema.safeParse(
      crawlRequestDraft(
        { ...DEFAULT_CRAWL_FIELDS, maxPages: String(CRAWL_LIMITS.maxPages.max + 1) },
        {
          url: 'https://a.example',
        },
      ),
    );
    expect(bad.success).toBe(false);
  });

  it('sends the header budget and the deploy target, and rejects a budget out of range', () => {
    const draft = crawlRequestDraft(
      { ...DEFAULT_CRAWL_FIELDS, headerBudget: ' 8192 ', policyTarget: 'cloudfront' },
      { url: 'https://a.example' },
    );
    expect(crawlRequestSchema.parse(draft)).toMatchObject({ headerBudget: 8192, policyTarget: 'cloudfront' });
    const { min, max } = CRAWL_LIMITS.headerBudget;
    const low = crawlRequestSchema.safeParse({ ...draft, headerBudget: String(min - 1) });
    expect(low.error?.issues[0]).toMatchObject({
      path: ['headerBudget'],
      message: `headerBudget must be between ${min} and ${max} bytes`,
    });
  });
});
