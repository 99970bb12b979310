// In AWS the API is a Lambda Function URL behind CloudFront (origin access control), so the request it
// sees names the Function URL's own host. The product's public origin (cookies' Secure flag and prefix,
// the CSRF Origin check, invitation links, report-uri) is the host the viewer asked CloudFront for: the
// viewer-request function writes it into VIEWER_HOST_HEADER, and it is taken only from requests carrying
// the origin-verify value (which no client has). PUBLIC_URL cannot be configured instead: the
// distribution's domain depends on the Function URL, which depends on the function.
import { ORIGIN_VERIFY_HEADER, VIEWER_HOST_HEADER } from '@csp/shared/http/edge-headers';
import { carriesOriginVerify } from './origin-verify';

/** A host name with an optional port: what a Host header may hold (no scheme, path or spaces). */
const HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?(?::\d{1,5})?$/i;

interface LambdaHttpEvent {
  headers?: Record<string, string | undefined>;
  requestContext?: { domainName?: string };
}

/**
 * The event with the viewer's host as its domain when CloudFront vouches for it; otherwise unchanged
 * (a request around CloudFront is refused by the origin guard anyway).
 */
export function withViewerHost<E extends LambdaHttpEvent>(event: E, accepted: readonly string[]): E {
  const host = event.headers?.[VIEWER_HOST_HEADER];
  if (!host || !HOST.test(host) || !event.requestContext) return event;
  if (!carriesOriginVerify(event.headers?.[ORIGIN_VERIFY_HEADER], accepted)) return event;
  return { ...event, requestContext: { ...event.requestContext, domainName: host.toLowerCase() } };
}
