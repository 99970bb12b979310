// Turning what the crawler saw (URLs, hashes) into CSP source expressions that are exact and safe to put in
// a header. Everything here is attacker-influenced input: a crawled site chooses its own URLs.
import { BARE_HASH_PATTERN } from './directives';

/** Schemes written as scheme sources. Anything else (http(s), ws(s)) becomes an exact origin. */
export const SCHEME_SOURCES = ['data:', 'blob:'] as const;

/** Schemes whose resources a site policy has nothing to say about (browser-internal or extension noise). */
const IGNORED_SCHEMES = new Set([
  'about:',
  'chrome:',
  'chrome-extension:',
  'moz-extension:',
  'safari-extension:',
  'safari-web-extension:',
  'edge:',
  'devtools:',
]);

/**
 * CSP3 host-part: host-char = ALPHA / DIGIT / "-", dot-separated, optional trailing dot. The WHATWG URL
 * parser accepts far more in a host (`;`, `,`, `"`, `_` …): `https://a;b.example` has origin
 * `https://a;b.example`, which in a header would end the directive and start another. So every host is
 * checked against the CSP grammar, not trusted because it parsed. IPv6 literals have no CSP syntax at all.
 */
const CSP_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?$/;

export type UrlSource =
  /** An exact origin, 'self' or a scheme source. */
  | { kind: 'source'; source: string; origin?: string; upgraded?: boolean }
  /** Not expressible in CSP (bad host, IPv6, unparsable): the resource will stay blocked. */
  | { kind: 'unrepresentable'; reason: string }
  /** A scheme a site policy does not govern (about:, extensions) or one we never emit (filesystem: …). */
  | { kind: 'ignored'; scheme: string };

/**
 * `scheme://host[:port]` of a URL, as a CSP host source, or why it cannot be one.
 * `upgrade`: the policy carries upgrade-insecure-requests, so the browser rewrites http:/ws: to
 * https:/wss: before the CSP check (Fetch "main fetch" upgrades first) — allow the upgraded origin.
 */
export function originOf(url: string, upgrade: boolean): UrlSource {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'unrepresentable', reason: 'not a valid absolute URL' };
  }
  let scheme = parsed.protocol;
  if ((SCHEME_SOURCES as readonly string[]).includes(scheme)) return { kind: 'source', source: scheme };
  if (scheme !== 'http:' && scheme !== 'https:' && scheme !== 'ws:' && scheme !== 'wss:') {
    return { kind: 'ignored', scheme };
  }
  const hostname = parsed.hostname;
  if (hostname.startsWith('[')) return { kind: 'unrepresentable', reason: 'IPv6 hosts have no CSP syntax' };
  if (!CSP_HOST.test(hostname)) {
    return { kind: 'unrepresentable', reason: 'host has characters CSP host sources cannot express' };
  }
  let port = parsed.port;
  let upgraded = false;
  if (upgrade && (scheme === 'http:' || scheme === 'ws:')) {
    scheme = scheme === 'http:' ? 'https:' : 'wss:';
    // Upgrade-insecure-requests maps port 80 to 443; the URL parser already dropped ":80" as default.
    upgraded = true;
  }
  if (port === '443' && (scheme === 'https:' || scheme === 'wss:')) port = '';
  const origin = `${scheme}//${hostname}${port ? `:${port}` : ''}`;
  return { kind: 'source', source: origin, origin, upgraded };
}

const COMMON_SCHEMES = ['https:', 'http:', 'data:', 'blob:', 'wss:', 'ws:'] as const;

/** Scheme of a URL string as the URL parser would see it (lower case, with the colon), cheaply. */
export function schemeOf(url: string): string | undefined {
  // Fast path without allocation for the schemes that make up nearly every observation.
  for (const scheme of COMMON_SCHEMES) if (url.startsWith(scheme)) return scheme;
  // The URL parser strips leading C0 controls and spaces before reading the scheme.
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 0x20) start++;
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url.slice(start));
  return m ? `${m[1]!.toLowerCase()}:` : undefined;
}

export function isIgnoredScheme(scheme: string): boolean {
  return IGNORED_SCHEMES.has(scheme);
}

/**
 * The part of a URL that alone decides its origin: everything up to the first `/`, `\`, `?` or `#` after
 * `//`. Used as a cache key, so 50,000 resources on 200 origins cost 200 URL parses, not 50,000.
 */
export function authorityPrefix(url: string): string | undefined {
  const start = url.indexOf('//');
  if (start < 0) return undefined;
  for (let i = start + 2; i < url.length; i++) {
    const c = url.charCodeAt(i);
    // '/', '\\', '?', '#'
    if (c === 47 || c === 92 || c === 63 || c === 35) return url.slice(0, i);
  }
  return url;
}

/** `'sha256-…'` from the crawler's bare `sha256-…`, or undefined when it is not a valid hash source. */
export function hashSource(hash: string): string | undefined {
  return BARE_HASH_PATTERN.test(hash) ? `'${hash}'` : undefined;
}
