import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { describe, expect, it } from 'vitest';
import { initialCrawlState } from './crawl';
import { Frontier } from './frontier';
import { crawlJobSchema } from './state';

describe('the frontier', () => {
  it('never holds more than maxPages, so a take scans at most that many, however many URLs a sitemap lists', () => {
    const maxPages = CRAWL_LIMITS.maxPages.max;
    const job = crawlJobSchema.parse({ url: 'https://e.com/', maxPages });
    const state = initialCrawlState(job);
    const frontier = new Frontier(state, maxPages);
    let added = 0;
    for (let i = 0; i < 200_000; i++)
      if (frontier.add(`https://e.com/p${i % 100_000}`, 'sitemap', 0)) added++;
    expect(added).toBe(maxPages);
    expect(frontier.size).toBe(maxPages);
    const taken: string[] = [];
    for (let item = frontier.take(() => true); item; item = frontier.take(() => true)) taken.push(item.url);
    // Breadth first: in the order queued.
    expect(taken).toEqual(Array.from({ length: maxPages }, (_, i) => `https://e.com/p${i}`));
  });
});
