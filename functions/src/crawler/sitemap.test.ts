import { describe, expect, it } from 'vitest';
import { sitemapsFromRobots } from './robots';
import { isXml, parseSitemap, parseSitemapContent } from './sitemap';

describe('sitemaps and robots.txt', () => {
  it('reads a urlset, decoding entities and CDATA', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc> https://e.com/a?x=1&amp;y=2 </loc></url><url><loc><![CDATA[https://e.com/b]]></loc></url>
      <url><loc>javascript:alert(1)</loc></url></urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/a?x=1&y=2', 'https://e.com/b'],
    });
  });

  it('recognises a sitemap index (namespaced too)', () => {
    const xml = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://e.com/s1.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'index', locs: ['https://e.com/s1.xml.gz'] });
  });

  it('takes uploaded content as XML, or as sitemap URLs one per line', () => {
    expect(isXml('\uFEFF <?xml version="1.0"?><urlset/>')).toBe(true);
    expect(parseSitemapContent('<urlset><url><loc>https://e.com/p</loc></url></urlset>')).toEqual({
      sitemap: { kind: 'urlset', locs: ['https://e.com/p'] },
      sitemapUrls: [],
    });
    expect(
      parseSitemapContent(' https://e.com/sitemap.xml \n\nnot a url\nhttps://e.com/more.xml.gz\r\nfile:///x'),
    ).toEqual({
      sitemap: null,
      sitemapUrls: ['https://e.com/sitemap.xml', 'https://e.com/more.xml.gz'],
    });
  });

  it('reads Sitemap: lines from robots.txt', () => {
    const robots =
      'User-agent: *\nDisallow: /admin\nSitemap: https://e.com/a.xml # main\nsitemap:/rel.xml\nSitemap: ftp://e.com/x\n';
    expect(sitemapsFromRobots(robots, 'https://e.com/robots.txt')).toEqual([
      'https://e.com/a.xml',
      'https://e.com/rel.xml',
    ]);
  });
});
