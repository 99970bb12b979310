import { describe, expect, it } from 'vitest';
import { rateLimitSubject, truncatedAddress } from './client-address';

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
});
