import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { sitemapsFromRobots } from './robots';
import {
  isXml,
  MAX_SITEMAP_DEPTH,
  MAX_SITEMAP_LOC_CHARS,
  parseSitemap,
  parseSitemapContent,
  SitemapReader,
} from './sitemap';

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

  it('repairs bare ampersands, leaving references, CDATA sections and comments alone', () => {
    const xml = `<urlset><!-- a & b --><url><loc>https://e.com/?a=1&b=2&amp;c=3&#38;d=4&#x26;e&</loc></url>
      <url><loc><![CDATA[https://e.com/?x=1&amp;y=2&z]]></loc></url></urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/?a=1&b=2&c=3&d=4&e&', 'https://e.com/?x=1&amp;y=2&z'],
    });
  });

  it('reads the same from any chunking of the bytes', () => {
    const xml = `\n\n <?xml version="1.0"?><urlset><url><loc>https://e.com/é?a=1&b=€</loc></url><!-- & -->
      <url><loc><![CDATA[https://e.com/😀&]]></loc></url><url><loc>https://e.com/&lt;3&</loc></url></urlset>`;
    const whole = parseSitemap(xml);
    expect(whole.locs).toEqual(['https://e.com/é?a=1&b=€', 'https://e.com/😀&', 'https://e.com/<3&']);
    const bytes = new TextEncoder().encode(`\uFEFF${xml}`);
    for (const size of [1, 2, 3, 7, 64]) {
      const reader = new SitemapReader();
      for (let i = 0; i < bytes.length; i += size) reader.write(bytes.subarray(i, i + size));
      expect(reader.end()).toEqual(whole);
    }
  });

  it('counts only the <loc> of a <url> or <sitemap>, whatever the prefix', () => {
    const xml = `<s:urlset xmlns:s="x" xmlns:image="y"><s:url><s:loc>https://e.com/p</s:loc><image:image>
      <image:loc>https://e.com/i.png</image:loc></image:image></s:url><LOC>https://e.com/slip</LOC></s:urlset>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', locs: ['https://e.com/p', 'https://e.com/slip'] });
  });

  it('stops at the URL cap, at the first XML error (its line counted from the top), and at a non-sitemap', () => {
    const urls = (n: number) =>
      Array.from({ length: n }, (_, i) => `<url><loc>https://e.com/${i}</loc></url>`);
    expect(parseSitemap(`<urlset>${urls(3).join('')}</urlset>`, 2)).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/0', 'https://e.com/1'],
      problems: ["more than 2 URLs (the sitemaps protocol's limit); the rest are ignored"],
    });
    expect(
      parseSitemap(`\n\n<urlset>\n${urls(2).join('\n')}\n<url><loc>https://e.com/x&nbsp;</loc>`),
    ).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/0', 'https://e.com/1'],
      problems: ['not well-formed XML (line 6: undefined entity); 2 URLs read before the error'],
    });
    expect(parseSitemap(`<urlset>${urls(1).join('')}`)).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/0'],
      problems: ['not well-formed XML (line 1: unclosed tag: urlset); 1 URLs read before the error'],
    });
    expect(parseSitemap('<html><loc>https://e.com/</loc></html>')).toEqual({
      kind: 'other',
      locs: [],
      problems: ['not a sitemap (its root element is <html>)'],
    });
    expect(parseSitemap(' \n ')).toEqual({ kind: 'other', locs: [], problems: ['empty document'] });
    // Entities of a DOCTYPE are never expanded.
    expect(
      parseSitemap(
        '<!DOCTYPE u [<!ENTITY a "aaaaaaaaaa">]><urlset><url><loc>https://e.com/&a;</loc></url></urlset>',
      ),
    ).toMatchObject({
      locs: [],
      problems: ['not well-formed XML (line 1: undefined entity); 0 URLs read before the error'],
    });
  });

  it(`skips a <loc> longer than ${MAX_SITEMAP_LOC_CHARS} characters, and says how many`, () => {
    const url = (length: number) => `https://e.com/${'a'.repeat(length - 'https://e.com/'.length)}`;
    const longest = url(MAX_SITEMAP_LOC_CHARS);
    const xml = `<urlset><url><loc>  ${longest}\n </loc></url><url><loc>${url(MAX_SITEMAP_LOC_CHARS + 1)}</loc></url>
      <url><loc>${url(100_000)}</loc></url><url><loc>https://e.com/after</loc></url></urlset>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'urlset',
      locs: [longest, 'https://e.com/after'],
      problems: ['2 <loc> entries longer than 2,048 characters skipped'],
    });
    // Chunked the same (the text of a long <loc> arrives in pieces).
    const reader = new SitemapReader();
    for (let i = 0; i < xml.length; i += 500) reader.write(xml.slice(i, i + 500));
    expect(reader.end()).toEqual(parseSitemap(xml));
  });

  it('keeps a URL listed many times once: 200,000 duplicate <loc> entries in under a second', () => {
    const entries = (n: number) => '<url><loc>https://e.com/same</loc></url>\n'.repeat(n);
    const doc = (n: number) => `<urlset>${entries(n)}<url><loc>https://e.com/other</loc></url></urlset>`;
    const best = (task: () => void) => {
      let fastest = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) {
        const started = performance.now();
        task();
        fastest = Math.min(fastest, performance.now() - started);
      }
      return fastest;
    };
    const large = doc(200_000);
    // Duplicates count once toward the 50,000-URL cap, so the whole file is read.
    expect(parseSitemap(large)).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/same', 'https://e.com/other'],
    });
    const reading = best(() => parseSitemap(large));
    const quarter = best(() => parseSitemap(doc(50_000)));
    // What any reading of these 7 MB costs on this machine now: the XML parser alone.
    const parserAlone = best(() => {
      const parser = new SaxesParser();
      parser.on('opentag', () => {});
      parser.write(large).close();
    });
    // About 0.25 s on a quiet machine. Under 1 s, or, on a machine so busy that the parser alone is slow,
    // within 3 times the parser's own time; and linear (four times the entries, about four times the time).
    expect(reading).toBeLessThan(Math.max(1_000, 3 * parserAlone));
    expect(reading / quarter).toBeLessThan(8);
  });

  it(`stops at elements nested deeper than ${MAX_SITEMAP_DEPTH}, keeping what was read and saying why`, () => {
    const nested = (depth: number, inner: string) => `${'<x>'.repeat(depth)}${inner}${'</x>'.repeat(depth)}`;
    // <urlset> and <url> are two levels: 14 more is exactly the limit.
    const deepest = `<urlset><url><loc>https://e.com/a</loc></url><url>${nested(MAX_SITEMAP_DEPTH - 2, '')}</url><url><loc>https://e.com/b</loc></url></urlset>`;
    expect(parseSitemap(deepest)).toEqual({ kind: 'urlset', locs: ['https://e.com/a', 'https://e.com/b'] });
    const tooDeep = `<urlset><url><loc>https://e.com/a</loc></url><url>${nested(MAX_SITEMAP_DEPTH - 1, '')}</url><url><loc>https://e.com/b</loc></url></urlset>`;
    expect(parseSitemap(tooDeep)).toEqual({
      kind: 'urlset',
      locs: ['https://e.com/a'],
      problems: ['elements nested deeper than 16 levels; reading stopped there (1 URLs read before)'],
    });
  });

  it('reads 16 MB of nested elements no further than depth 17, in little memory', () => {
    const xml = `<urlset>${'<url>'.repeat(4 * 1024 * 1024)}`;
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const reader = new SitemapReader();
    // As a download arrives: 64 KB chunks, until the reader says it is done.
    let chunks = 0;
    for (let i = 0; i < xml.length && reader.write(xml.slice(i, i + 65_536)); i += 65_536) chunks += 1;
    const result = reader.end();
    expect(result.problems).toEqual([
      'elements nested deeper than 16 levels; reading stopped there (0 URLs read before)',
    ]);
    expect(chunks).toBe(0);
    expect(performance.now() - started).toBeLessThan(1_000);
    // Given whole, in one string, it stops as early.
    expect(parseSitemap(xml).problems).toEqual(result.problems);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(128 * 1024 * 1024);
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
