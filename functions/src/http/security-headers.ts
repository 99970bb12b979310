// The product's own response headers: a strict CSP (no inline script, nothing from other origins), HSTS
// on https, nosniff, a referrer policy, and no framing. A CSP tool has to pass its own evaluation.
import { createMiddleware } from 'hono/factory';

export const OWN_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

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
