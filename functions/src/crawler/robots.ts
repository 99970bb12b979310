// robots.txt: only its Sitemap: lines matter to discovery. Disallow rules are not applied — the site's
// owner asked for this analysis, and a policy must cover every page, including those kept from search
// engines.

/** Absolute sitemap URLs listed in a robots.txt (relative ones resolved against the robots URL). */
export function sitemapsFromRobots(text: string, robotsUrl: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const match = /^sitemap\s*:\s*(\S+)/i.exec(line);
    if (!match) continue;
    try {
      const url = new URL(match[1]!, robotsUrl);
      if (url.protocol === 'http:' || url.protocol === 'https:') out.push(url.href);
    } catch {}
  }
  return [...new Set(out)];
}
