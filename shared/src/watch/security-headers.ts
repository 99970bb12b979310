// The response headers that decide a page's security, as a watched site serves them (PCI DSS 11.6.1 asks
// for alerts on "security-impacting HTTP headers"): the one list the crawler records, the run comparison
// reads and the screens show. Names in the lowercase form HTTP/2 uses (and Node's header maps give).
export const SECURITY_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'strict-transport-security',
  'x-frame-options',
  'permissions-policy',
  'referrer-policy',
  'x-content-type-options',
  'integrity-policy',
  'integrity-policy-report-only',
] as const;
export type SecurityHeader = (typeof SECURITY_HEADERS)[number];

/** A recorded value is cut here (a hostile site's 1 MB header is not evidence worth keeping whole). */
export const SECURITY_HEADER_MAX_CHARS = 8 * 1024;

const KNOWN = new Set<string>(SECURITY_HEADERS);

/**
 * The security headers of one response, from any header map (names in any case; repeated headers joined
 * with ", " as HTTP joins them): only the listed ones, values trimmed and bounded, absent ones left out.
 */
export function securityHeadersOf(
  headers: Iterable<readonly [string, string | readonly string[] | undefined]>,
): Partial<Record<SecurityHeader, string>> {
  const found = new Map<SecurityHeader, string[]>();
  for (const [rawName, rawValue] of headers) {
    const name = rawName.toLowerCase();
    if (!KNOWN.has(name) || rawValue === undefined) continue;
    const values = typeof rawValue === 'string' ? [rawValue] : [...rawValue];
    const list = found.get(name as SecurityHeader) ?? [];
    list.push(...values.map((v) => v.trim()));
    found.set(name as SecurityHeader, list);
  }
  const out: Partial<Record<SecurityHeader, string>> = {};
  for (const name of SECURITY_HEADERS) {
    const values = found.get(name);
    if (values) out[name] = values.join(', ').slice(0, SECURITY_HEADER_MAX_CHARS);
  }
  return out;
}
