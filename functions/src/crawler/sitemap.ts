// Sitemaps (sitemaps.org): a <urlset> lists pages, a <sitemapindex> lists more sitemaps. Parsed with a
// tolerant scan of <loc> elements — sitemaps in the wild are often not well-formed, and a full XML
// parser would add nothing but failures.

export type ParsedSitemap = { kind: 'urlset' | 'index'; locs: string[] };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text
    .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
      if (entity[0] === '#') {
        const code =
          entity[1] === 'x' || entity[1] === 'X'
            ? Number.parseInt(entity.slice(2), 16)
            : Number(entity.slice(1));
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[entity.toLowerCase()] ?? whole;
    })
    .trim();
}

/** Whether text is XML (a sitemap document) rather than a list of URLs. */
export function isXml(text: string): boolean {
  return /^\s*(?:\uFEFF)?</.test(text);
}

export function parseSitemap(xml: string): ParsedSitemap {
  const kind = /<(?:[\w-]+:)?sitemapindex[\s>]/i.test(xml) ? 'index' : 'urlset';
  const locs: string[] = [];
  const pattern = /<(?:[\w-]+:)?loc\b[^>]*>([\s\S]*?)<\/(?:[\w-]+:)?loc>/gi;
  for (let match = pattern.exec(xml); match !== null; match = pattern.exec(xml)) {
    const loc = decodeXmlText(match[1]!);
    if (/^https?:\/\//i.test(loc)) locs.push(loc);
  }
  return { kind, locs };
}

/**
 * Uploaded sitemap content: the XML text of a sitemap (standalone analysis screen), or one sitemap URL per
 * line (the domain screen's advanced form). Lines that are not http(s) URLs are ignored.
 */
export function parseSitemapContent(text: string): { sitemap: ParsedSitemap | null; sitemapUrls: string[] } {
  if (isXml(text)) return { sitemap: parseSitemap(text), sitemapUrls: [] };
  const sitemapUrls: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const candidate = line.trim();
    if (!candidate) continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') sitemapUrls.push(url.href);
    } catch {}
  }
  return { sitemap: null, sitemapUrls };
}
