import type { CrawledPages } from '@csp/shared/schemas/crawled-pages';
import { describe, expect, it } from 'vitest';
import { groupByDirective, pageStatus, searchPages } from './crawled-pages';

const list: CrawledPages = {
  pages: [
    {
      url: 'https://s.test/down',
      status: 0,
      failure: 'net::ERR_CONNECTION_REFUSED',
      resourceCount: 0,
      loaded: [],
    },
    { url: 'https://s.test/gone', status: 404, resourceCount: 0, loaded: [] },
    { url: 'https://s.test/text', status: 404, failure: 'HTTP 404', resourceCount: 0, loaded: [] },
    { url: 'https://s.test/', status: 200, resourceCount: 2, loaded: [0, 1] },
    { url: 'https://s.test/about', status: 200, resourceCount: 1, loaded: [0] },
  ],
  pagesTotal: 4,
  resources: [
    { directive: 'img-src', value: 'https://img.test/logo.png', pages: 2 },
    { directive: 'font-src', value: 'https://fonts.test/a.woff2', pages: 1 },
  ],
  resourcesTotal: 2,
};

describe('crawled pages', () => {
  it('names each status', () => {
    expect(list.pages.map((p) => pageStatus(p).label)).toEqual([
      'Failed',
      'HTTP 404',
      'HTTP 404',
      '200',
      '200',
    ]);
  });

  it('finds pages by URL, status and what they loaded', () => {
    expect(searchPages(list, '').length).toBe(5);
    expect(searchPages(list, 'GONE').map((p) => p.url)).toEqual(['https://s.test/gone']);
    expect(searchPages(list, '404').map((p) => p.url)).toEqual([
      'https://s.test/gone',
      'https://s.test/text',
    ]);
    expect(searchPages(list, 'woff2').map((p) => p.url)).toEqual(['https://s.test/']);
    expect(searchPages(list, 'logo').map((p) => p.url)).toEqual(['https://s.test/', 'https://s.test/about']);
  });

  it('groups resources by directive, of one page or all', () => {
    expect(groupByDirective(list).map((g) => g.directive)).toEqual(['font-src', 'img-src']);
    expect(groupByDirective(list, 'logo').map((g) => g.resources.length)).toEqual([1]);
    expect(groupByDirective(list, '', [0]).map((g) => g.directive)).toEqual(['img-src']);
  });
});
