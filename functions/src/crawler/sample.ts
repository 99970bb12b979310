// Choosing a sample of crawled pages (stability check, verification): spread over the crawl, first page
// first, so every part of the site (and every template) has a chance to be in it.

/** `count` distinct pages spread over `pages` in order, or all of them when there are no more. */
export function samplePages(pages: readonly string[], count = 10): string[] {
  const unique = [...new Set(pages)];
  if (unique.length <= count) return unique;
  const step = unique.length / count;
  return Array.from({ length: count }, (_, i) => unique[Math.floor(i * step)]!);
}
