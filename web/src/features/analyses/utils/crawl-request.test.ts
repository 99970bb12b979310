import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
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
      maxPages: 50,
      crawlDelay: 1000,
      userAgent: '',
    });
    const bad = crawlRequestSchema.safeParse(
      crawlRequestDraft(
        { ...DEFAULT_CRAWL_FIELDS, maxPages: '501' },
        {
          url: 'https://a.example',
        },
      ),
    );
    expect(bad.success).toBe(false);
  });
});
