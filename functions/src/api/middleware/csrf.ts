// Cross-site request forgery guard for writes: a browser always names the page's origin on a cross-origin
// write (Origin, Sec-Fetch-Site), so a foreign one is refused. Bodies must be JSON, which an HTML form
// cannot send without a CORS preflight that we never grant.
import { createMiddleware } from 'hono/factory';
import { AppError } from '../../errors';
import { publicOrigin } from '../../http/public-origin';
import type { ApiEnv } from '../deps';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfGuard() {
  return createMiddleware<ApiEnv>(async function csrfMiddleware(c, next) {
    // An API token request carries no cookie (api-token.ts): nothing for another site to forge.
    if (SAFE.has(c.req.method) || c.var.apiToken) return next();
    const origin = c.req.header('origin');
    const fetchSite = c.req.header('sec-fetch-site');
    const expected = publicOrigin(c.req.url, c.var.deps.config.PUBLIC_URL);
    if (origin !== undefined && origin !== expected) {
      throw new AppError(403, 'Cross-origin request refused');
    }
    if (
      origin === undefined &&
      fetchSite !== undefined &&
      fetchSite !== 'same-origin' &&
      fetchSite !== 'none'
    ) {
      throw new AppError(403, 'Cross-origin request refused');
    }
    const length = Number(c.req.header('content-length') ?? '0');
    const chunked = c.req.header('transfer-encoding') !== undefined;
    if (length > 0 || chunked) {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json') {
        throw new AppError(415, 'Content-Type must be application/json');
      }
    }
    return next();
  });
}
