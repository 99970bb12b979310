import { describe, expect, it } from 'vitest';
import { formatRecoveryCode, normalizeRecoveryCode } from './recovery-codes';

describe('recovery codes', () => {
  it('shows a code in four groups and reads it back however it is typed', () => {
    const code = '7QKM2XHD9RTAC4PZ';
    expect(formatRecoveryCode(code)).toBe('7QKM-2XHD-9RTA-C4PZ');
    expect(normalizeRecoveryCode('7QKM-2XHD-9RTA-C4PZ')).toBe(code);
    expect(normalizeRecoveryCode(' 7qkm 2xhd 9rta c4pz ')).toBe(code);
    expect(normalizeRecoveryCode('O1LI-0000-0000-0000')).toBe('0111000000000000');
  });

  it('refuses what cannot be a code', () => {
    expect(normalizeRecoveryCode('123456')).toBeNull();
    expect(normalizeRecoveryCode('7QKM-2XHD-9RTA-C4PU')).toBeNull();
    expect(normalizeRecoveryCode('7QKM-2XHD-9RTA-C4PZZ')).toBeNull();
  });
});
