// The product's own Content-Security-Policy: no inline script, nothing from other origins, no plugins, no
// framing. Served by the local server and the API, and by CloudFront in AWS (infra). A CSP tool has to pass
// its own evaluation (functions/src/http/security-headers.test.ts).
export const OWN_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
