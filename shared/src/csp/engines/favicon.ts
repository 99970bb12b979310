// The site's own favicons in img-src. Firefox and WebKit check a favicon fetch against img-src on every
// page (engine table, 'favicon-img-src'); a Chromium crawl never sees one. A favicon the site serves
// therefore gets its source in img-src, whatever the crawl observed. One the site does not serve (a 404
// /favicon.ico) gets nothing: allowing a URL that answers nothing would only widen the policy. Pure.
import type { CrawlArtifact } from '../artifact';
import { SELF } from '../directives';
import { originOf } from '../source';

/** A fetch that answered 2xx: the site serves that favicon. */
export function isServed(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * img-src sources for the favicons the site serves: 'self' for the site's own origin, the exact origin
 * otherwise (upgraded to https: when the policy upgrades requests), data: for an inline icon.
 */
export function faviconSources(artifact: CrawlArtifact, self: string, secure: boolean): string[] {
  const out = new Set<string>();
  for (const favicon of artifact.favicons ?? []) {
    if (favicon.url.startsWith('data:')) {
      out.add('data:');
      continue;
    }
    if (!isServed(favicon.status)) continue;
    const result = originOf(favicon.url, secure);
    if (result.kind !== 'source') continue;
    if (result.origin !== undefined && result.origin === self) out.add(SELF);
    else if (result.origin !== undefined) out.add(result.source);
  }
  return [...out];
}
