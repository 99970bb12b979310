// The security headers a live page serves, as a browser would get them: a GET that follows redirects, the
// page's final URL and its headers (securityHeadersOf: the watch's one list, repeated headers joined).
import { type SecurityHeader, securityHeadersOf } from '@csp/shared/watch/security-headers';
import { FailureError } from './exit-codes';

export interface ServedPage {
  url: string;
  finalUrl: string;
  status: number;
  headers: Partial<Record<SecurityHeader, string>>;
}

export async function fetchServedHeaders(url: string): Promise<ServedPage> {
  let res: Response;
  try {
    res = await fetch(url, {
      redirect: 'follow',
      headers: { 'user-agent': 'csp-generator-cli (check)', accept: 'text/html,*/*' },
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new FailureError(`Could not fetch ${url}${cause}`);
  }
  // Only the headers matter: the body is not read.
  await res.body?.cancel().catch(() => {});
  if (res.status >= 500) throw new FailureError(`${url} answered ${res.status}`);
  return {
    url,
    finalUrl: res.url || url,
    status: res.status,
    headers: securityHeadersOf(res.headers.entries()),
  };
}
