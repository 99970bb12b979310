import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, rateLimitSubject, truncatedAddress } from './client-address';

/** What clientAddress answers for a request with these headers, from this connection address. */
async function addressOf(headers: Record<string, string>, behindCloudFront: boolean) {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, behindCloudFront)));
  const env = { requestContext: { http: { sourceIp: '203.0.113.7' } } };
  return (await app.request('/', { headers }, env)).text();
}

describe('client addresses', () => {
  it('are stored cut to their /24 or /48, IPv4-mapped IPv6 counting as IPv4', () => {
    expect(truncatedAddress('203.0.113.77')).toBe('203.0.113.0');
    expect(truncatedAddress('::ffff:198.51.100.9')).toBe('198.51.100.0');
    expect(truncatedAddress('::FFFF:198.51.100.9')).toBe('198.51.100.0');
    expect(truncatedAddress('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::');
    expect(truncatedAddress('::1')).toBe('::');
    expect(truncatedAddress('not an address')).toBe('unknown');
    expect(truncatedAddress('256.1.1.1')).toBe('unknown');
  });

  it('are limited per whole IPv4 address or per IPv6 /64', () => {
    expect(rateLimitSubject('203.0.113.77')).toBe('203.0.113.77');
    expect(rateLimitSubject('::ffff:203.0.113.77')).toBe('203.0.113.77');
    expect(rateLimitSubject('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:8d3::/64');
    expect(rateLimitSubject('2001:db8:85a3:8d3::1')).toBe(rateLimitSubject('2001:db8:85a3:8d3:ffff::2'));
    expect(rateLimitSubject('unknown')).toBe('unknown');
  });

  it("take the viewer address CloudFront's function wrote, never one a client can send", async () => {
    const forged = { 'cloudfront-viewer-address': '6.6.6.6:1234', 'x-forwarded-for': '6.6.6.6, 7.7.7.7' };
    expect(await addressOf({ ...forged, 'x-csp-viewer-ip': '198.51.100.23' }, true)).toBe('198.51.100.23');
    expect(await addressOf(forged, true)).toBe('203.0.113.7');
    // Not behind CloudFront (no origin-verify): the connection's own address, whatever the headers say.
    expect(await addressOf({ ...forged, 'x-csp-viewer-ip': '6.6.6.6' }, false)).toBe('203.0.113.7');
  });
});
