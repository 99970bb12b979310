// The site's favicons. Firefox and WebKit fetch a page's `<link rel~=icon>` and, without one, the origin's
// /favicon.ico under the page's img-src; headless Chromium fetches neither, so the crawl's observations
// never show them (shared engine table, 'favicon-img-src'). The tab reads each page's icon links from the
// rendered DOM (ICON_LINKS_EXPRESSION); once the crawl is done, checkFavicons() asks whether each icon and
// /favicon.ico are served, through the same SSRF guard as every discovery fetch, and the artifact keeps the
// answers for the generator (shared/src/csp/engines/favicon.ts).
import type { Favicon } from '@csp/shared/csp/artifact';
import type { TargetGuard } from './guard';
import { guardedRequest } from './guarded-fetch';

/** Icon links read per page, and icon URLs checked per crawl: a page cannot make us fetch without end. */
export const MAX_ICONS_PER_PAGE = 8;
export const MAX_ICONS_CHECKED = 16;
const MAX_URL_CHARS = 2048;
const ICON_FETCH_TIMEOUT_MS = 5_000;
/** The whole check's time: it runs once, at the end of a crawl. */
export const FAVICON_CHECK_BUDGET_MS = 15_000;

/**
 * Evaluated in the page: the absolute hrefs of `<link>` elements whose rel has the token `icon` (rel is a
 * token list: "icon", "shortcut icon"; "apple-touch-icon" is another token, never fetched as a favicon).
 */
export const ICON_LINKS_EXPRESSION = `(function () {
  var out = [];
  var links = document.querySelectorAll('link[rel][href]');
  for (var i = 0; i < links.length && out.length < ${MAX_ICONS_PER_PAGE}; i++) {
    var rel = String(links[i].getAttribute('rel') || '').toLowerCase().split(/[\\t\\n\\f\\r ]+/);
    if (rel.indexOf('icon') < 0) continue;
    var href = links[i].href;
    if (typeof href === 'string') out.push(href.slice(0, ${MAX_URL_CHARS + 1}));
  }
  return out;
})()`;

/** What the page answered, kept only as far as it is a short list of http(s) or data: URLs (page input). */
export function iconHrefs(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const v of value.slice(0, MAX_ICONS_PER_PAGE)) {
    if (typeof v !== 'string' || v.length > MAX_URL_CHARS) continue;
    // A data: icon is decided by its scheme: its bytes are never kept.
    if (/^data:/i.test(v)) out.push('data:');
    else if (/^https?:\/\//i.test(v)) out.push(v);
  }
  return out;
}

/** Keeps the icon links a page named, distinct and bounded over the whole crawl. */
export function addIconLinks(state: { iconLinks: string[] }, icons: readonly string[]): void {
  for (const icon of icons) {
    if (state.iconLinks.length >= MAX_ICONS_CHECKED) return;
    if (!state.iconLinks.includes(icon)) state.iconLinks.push(icon);
  }
}

export interface FaviconCheckOptions {
  /** The analysed site's origin: its /favicon.ico is checked too. */
  origin: string;
  /** Icon links the pages named, in the order seen. */
  links: readonly string[];
  guard: TargetGuard;
  userAgent?: string;
  /** Epoch ms after which nothing more is fetched. */
  deadline: number;
  /** Waits out the crawl delay of a host before each request. */
  beforeRequest?: (url: URL) => Promise<void>;
}

/**
 * Whether each icon link and the origin's /favicon.ico is served (the HTTP status of a GET, read up to the
 * headers). A fetch the guard refuses, or that fails, counts as not served (status 0). A redirect's target
 * is listed too: the browser checks every hop against img-src.
 */
export async function checkFavicons(options: FaviconCheckOptions): Promise<Favicon[]> {
  const out: Favicon[] = [];
  const seen = new Set<string>();
  const targets: { url: string; from: Favicon['from'] }[] = [
    ...options.links.map((url) => ({ url, from: 'link' as const })),
    { url: `${options.origin}/favicon.ico`, from: 'default' as const },
  ];
  let fetched = 0;
  for (const { url, from } of targets) {
    if (seen.has(url)) continue;
    seen.add(url);
    if (url === 'data:') {
      out.push({ url, status: 200, from });
      continue;
    }
    // The default /favicon.ico is always checked; links only within the budget.
    if (from === 'link' && fetched >= MAX_ICONS_CHECKED - 1) continue;
    if (Date.now() >= options.deadline) break;
    fetched += 1;
    try {
      const res = await guardedRequest(url, {
        guard: options.guard,
        ...(options.userAgent ? { userAgent: options.userAgent } : {}),
        timeoutMs: ICON_FETCH_TIMEOUT_MS,
        deadline: Math.min(options.deadline, Date.now() + ICON_FETCH_TIMEOUT_MS),
        maxBytes: 1,
        ...(options.beforeRequest ? { beforeRequest: options.beforeRequest } : {}),
      });
      res.close();
      out.push({ url, status: res.status, from });
      if (res.url !== url && !seen.has(res.url)) {
        seen.add(res.url);
        out.push({ url: res.url, status: res.status, from });
      }
    } catch {
      // Refused by the guard (a private address in AWS), unreachable or late: not served, as far as we know.
      out.push({ url, status: 0, from });
    }
  }
  return out;
}
