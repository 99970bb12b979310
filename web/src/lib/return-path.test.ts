import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInPathFrom } from './return-path';

describe('return path after sign-in', () => {
  it('follows a path of the product only', () => {
    expect(safeReturnPath('/invite/abc')).toBe('/invite/abc');
    expect(safeReturnPath('/domains/1?tab=x')).toBe('/domains/1?tab=x');
    for (const bad of [
      null,
      '',
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/x\ny',
      '/auth?next=/x',
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBe('/dashboard');
    }
  });

  it('remembers where the user was', () => {
    expect(signInPathFrom({ pathname: '/invite/abc', search: '' })).toBe('/auth?next=%2Finvite%2Fabc');
    expect(signInPathFrom({ pathname: '/dashboard', search: '' })).toBe('/auth');
  });
});
