// Requests per client address (IPv6 clients by /64, as every per-client limit here), in two budgets: a
// tight one for sign-in, registration and the proof-of-work challenge, a broad one for everything else.
// So one client sending junk sign-ins or flooding the API is refused on its own, and every other client
// still gets in. In AWS the same limits stand at the edge, per IP, in AWS WAF (infra/lib/web-acl.ts); these
// hold locally and behind it. Token buckets in memory: each process (Lambda container) counts on its own.
import { createMiddleware } from 'hono/factory';
import type { Config } from '../../config';
import { clientAddress, rateLimitSubject } from '../../http/client-address';
import { RateLimiter } from '../../report-ingest/rate-limiter';
import type { ApiEnv } from '../deps';

/** The paths of the tight budget: each sign-in costs work (proof-of-work, scrypt) or creates an account. */
export const SIGN_IN_PATHS: ReadonlySet<string> = new Set([
  '/api/login',
  '/api/register',
  '/api/altcha-challenge',
]);

const perMinute = (n: number) => new RateLimiter(n, n / 60);

export function clientRateLimit(config: Pick<Config, 'API_SIGN_IN_PER_MINUTE' | 'API_CLIENT_PER_MINUTE'>) {
  const signIn = perMinute(config.API_SIGN_IN_PER_MINUTE);
  const rest = perMinute(config.API_CLIENT_PER_MINUTE);
  return createMiddleware<ApiEnv>(async function clientRateLimitMiddleware(c, next) {
    const { deps } = c.var;
    const subject = rateLimitSubject(clientAddress(c, Boolean(deps.secrets.originVerify)));
    const limiter = SIGN_IN_PATHS.has(c.req.path) ? signIn : rest;
    if (!limiter.take(subject)) {
      const seconds = limiter.retryAfter(subject);
      c.var.log.warn('request refused: client over its rate limit', {
        path: c.req.path,
        budget: limiter === signIn ? 'sign-in' : 'api',
      });
      const message = `Too many requests from your network address. Please wait ${seconds} seconds and try again.`;
      return c.json({ message }, 429, { 'Retry-After': String(seconds) });
    }
    return next();
  });
}
