import { describe, expect, it } from 'vitest';
import { acceptedEncoding } from './accept-encoding';

const OFFERED = ['br', 'gzip'] as const;

describe('acceptedEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.0, gzip;q=0.5', 'gzip'],
    ['gzip;q=0, identity', undefined],
    ['GZIP', 'gzip'],
    ['*', 'br'],
    ['*, br;q=0', 'gzip'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['', undefined],
    [undefined, undefined],
    ['br;q=abc, gzip', 'gzip'],
    ['gzip;q=0.001', 'gzip'],
  ])('%s → %s', (header, expected) => {
    expect(acceptedEncoding(header, OFFERED)).toBe(expected);
  });
});
