// The product's own response headers: a strict CSP (no inline script, nothing from other origins), HSTS
// on https, nosniff, a referrer policy, and no framing. A CSP tool has to pass its own evaluation.
import { OWN_POLICY } from '@csp/shared/csp/own-policy';
import { createMiddleware } from 'hono/factory';

export { OWN_POLICY };

export function securityHeaders(opts: { https: () => boolean; policy?: string }) {
  const policy = opts.policy ?? OWN_POLICY;
  return createMiddleware(async function securityHeadersMiddleware(c, next) {
    await next();
    c.header('Content-Security-Policy', policy);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (opts.https()) c.header('Strict-Transport-Security', 'max-age=63072000; includeSubDomains');
  });
}
