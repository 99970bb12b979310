// Two-factor recovery codes: what one looks like and how what a user types is read (the rules; the server
// generates and hashes them in functions/src/auth/recovery-codes.ts).
//
// A code is 16 characters of Crockford base32 (80 random bits), shown as four groups of four. 80 bits are
// beyond any brute force, so a fast hash (SHA-256) stores them safely: a slow, salted password hash is for
// secrets people choose, and would make each sign-in try every stored code in turn instead of one lookup.

/** How many codes a user gets at setup and at each regeneration. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of one code (5 bits each). */
export const RECOVERY_CODE_LENGTH = 16;
/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand has no look-alikes. */
export const RECOVERY_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const GROUP = 4;

/** The code as shown: four groups of four, dash-separated. */
export function formatRecoveryCode(code: string): string {
  return (code.match(new RegExp(`.{1,${GROUP}}`, 'g')) ?? []).join('-');
}

/**
 * What a user typed, as the code it means: case, dashes and spaces do not matter, and the letters Crockford
 * reads as digits (O → 0, I and L → 1) are taken as such. Null when it cannot be a code.
 */
export function normalizeRecoveryCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== RECOVERY_CODE_LENGTH) return null;
  for (const ch of code) if (!RECOVERY_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** Whether typed text at the sign-in code step is a recovery code rather than a 6-digit TOTP code. */
export const looksLikeRecoveryCode = (typed: string) => normalizeRecoveryCode(typed) !== null;
