import { describe, expect, it } from 'vitest';
import { hasSignedInCookie, signedInCookieName } from './signed-in-cookie';

describe('hasSignedInCookie', () => {
  it.each([
    ['csp_signed_in=1', true],
    ['a=b; csp_signed_in=1', true],
    ['__Host-csp_signed_in=1; a=b', true],
    [`${signedInCookieName(true)}=1`, true],
    [`${signedInCookieName(false)}=1`, true],
    ['', false],
    ['csp_session=x', false],
    ['not_csp_signed_in=1', false],
    ['a=csp_signed_in=1', false],
  ])('%j → %s', (cookies, expected) => {
    expect(hasSignedInCookie(cookies)).toBe(expected);
  });
});
