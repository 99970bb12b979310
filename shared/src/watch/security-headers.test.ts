import { describe, expect, it } from 'vitest';
import { SECURITY_HEADER_MAX_CHARS, securityHeadersOf } from './security-headers';

describe('securityHeadersOf', () => {
  it('keeps the listed headers in any case, joins repeats and leaves the rest out', () => {
    expect(
      securityHeadersOf(
        Object.entries({
          'Content-Security-Policy': " default-src 'self' ",
          'X-Frame-Options': 'DENY',
          'content-type': 'text/html',
          'Set-Cookie': 'secret=1',
          'permissions-policy': ['camera=()', 'geolocation=()'],
          'referrer-policy': undefined,
        }),
      ),
    ).toEqual({
      'content-security-policy': "default-src 'self'",
      'x-frame-options': 'DENY',
      'permissions-policy': 'camera=(), geolocation=()',
    });
  });

  it('bounds a value', () => {
    const long = securityHeadersOf([
      ['strict-transport-security', 'x'.repeat(SECURITY_HEADER_MAX_CHARS * 2)],
    ]);
    expect(long['strict-transport-security']).toHaveLength(SECURITY_HEADER_MAX_CHARS);
  });
});
