// Why a page could not be visited, in words a site owner recognises, and what the crawler does about it:
// a refused host is dropped, a timeout is retried, a crashed tab is replaced.

/** What a failed navigation means for the visit (see VisitResult). */
export interface VisitFailure {
  error: string;
  tabBroken?: boolean;
  refused?: boolean;
  incomplete?: string;
}

export interface FailureContext {
  /** Refusals of the SSRF proxy, by host. */
  blocked?: Map<string, string>;
  /** Why the proxy could not reach a host (connection refused…), by host. */
  unreachable?: Map<string, string>;
  /** The renderer crashed during the visit. */
  crashed: boolean;
  /** The navigation's time limit, named in a timeout's message. */
  navigationTimeoutMs: number;
}

export function describeFailure(url: string, error: unknown, context: FailureContext): VisitFailure {
  const message = error instanceof Error ? error.message : String(error);
  let host = '';
  try {
    host = new URL(url).host;
  } catch {}
  const refusal = context.blocked?.get(host) ?? context.blocked?.get(host.replace(/:\d+$/, ''));
  if (refusal) return { error: refusal, refused: true };
  const unreachable = context.unreachable?.get(host);
  if (unreachable) return { error: `${unreachable} at ${url}` };
  if (/timeout/i.test(message)) {
    // Worth a second try (a busy machine, a slow first byte): the caller retries incomplete captures.
    const error = `${url}: timed out after ${context.navigationTimeoutMs} ms`;
    return { error, incomplete: error };
  }
  if (context.crashed || /crash|Target closed|Session closed|detached/i.test(message)) {
    return { error: `${url}: the page crashed`, tabBroken: true };
  }
  const net = /net::ERR_[A-Z_]+/.exec(message);
  return { error: net ? describeNetError(net[0], url) : `${url}: ${message.split('\n')[0]}` };
}

/** Chromium's network error codes, in words a site owner recognises. */
const NET_ERRORS: Record<string, string> = {
  'net::ERR_CONNECTION_REFUSED': 'connection refused',
  'net::ERR_CONNECTION_RESET': 'connection reset',
  'net::ERR_CONNECTION_CLOSED': 'connection closed',
  'net::ERR_CONNECTION_TIMED_OUT': 'connection timed out',
  'net::ERR_NAME_NOT_RESOLVED': 'host not found',
  'net::ERR_CERT_AUTHORITY_INVALID': 'untrusted TLS certificate',
  'net::ERR_CERT_COMMON_NAME_INVALID': 'TLS certificate for another name',
  'net::ERR_CERT_DATE_INVALID': 'expired or not yet valid TLS certificate',
  'net::ERR_SSL_PROTOCOL_ERROR': 'TLS handshake failed',
  'net::ERR_TOO_MANY_REDIRECTS': 'too many redirects',
  'net::ERR_EMPTY_RESPONSE': 'empty response',
};

export function describeNetError(code: string, url: string): string {
  const words = NET_ERRORS[code];
  return words ? `${words} at ${url}` : `${url}: ${code}`;
}
