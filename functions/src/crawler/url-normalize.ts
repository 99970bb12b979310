// One key per page, so the crawl never visits the same page twice: the fragment is dropped, default ports
// and host case are normalised by the URL parser, a trailing slash is not significant ("/a/" = "/a"), and
// nothing else changes (query order and case matter to servers).

/** Extensions that are not documents: never queued as pages (the browser would download them). */
const NON_DOCUMENT =
  /\.(pdf|zip|gz|tgz|rar|7z|tar|dmg|exe|msi|apk|iso|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp3|mp4|m4a|webm|ogg|wav|mov|avi|woff2?|ttf|otf|eot|css|js|mjs|json|xml|txt|csv|docx?|xlsx?|pptx?)$/i;

/** A document's URL as a request names it: document.URL keeps the fragment, a request never has one. */
export function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** The page key of `input` (resolved against `base`), or null for anything that is not an http(s) page. */
export function normalizeUrl(input: string, base?: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // Credentials in a crawl URL would be sent to the site and stored in the analysis: refuse them.
  if (url.username || url.password) return null;
  let path = url.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/** Same-site for the crawl means the same origin (scheme, host, port) as the analysed URL. */
export function isSameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** Whether a URL may be a web page (not an obvious download or asset). */
export function looksLikePage(url: string): boolean {
  try {
    return !NON_DOCUMENT.test(new URL(url).pathname);
  } catch {
    return false;
  }
}
