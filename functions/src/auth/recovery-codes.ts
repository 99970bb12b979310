// Two-factor recovery codes: RECOVERY_CODE_COUNT single-use codes, shown once, stored as SHA-256 hashes
// (why a fast hash is enough: shared/src/auth/recovery-codes.ts), each usable instead of a TOTP code at the
// second step of a sign-in.
import { createHash, randomBytes } from 'node:crypto';
import {
  formatRecoveryCode,
  normalizeRecoveryCode,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
} from '@csp/shared/auth/recovery-codes';
import type { Db } from '../store/db';
import { takeRecoveryCode } from '../store/recovery-codes';
import type { UserRecord } from '../store/users';

const hashOf = (code: string) => createHash('sha256').update(code).digest('hex');

/** One code: RECOVERY_CODE_LENGTH × 5 random bits (the alphabet has 32 characters). */
function newCode(): string {
  const bytes = randomBytes(Math.ceil((RECOVERY_CODE_LENGTH * 5) / 8));
  let bits = 0;
  let value = 0;
  let code = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5 && code.length < RECOVERY_CODE_LENGTH) {
      code += RECOVERY_CODE_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return code;
}

/** A fresh set: the codes to show (formatted) and the hashes to store. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const raw = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  return { codes: raw.map(formatRecoveryCode), hashes: raw.map(hashOf) };
}

/** How many unused codes the user has. */
export const recoveryCodesLeft = (user: UserRecord) => user.recoveryCodes?.size ?? 0;

/** Checks a typed code and uses it up: true once per code, whatever races it. */
export async function redeemRecoveryCode(db: Db, user: UserRecord, typed: string): Promise<boolean> {
  const code = normalizeRecoveryCode(typed);
  if (!code || !user.recoveryCodes?.has(hashOf(code))) return false;
  return takeRecoveryCode(db, user.id, hashOf(code));
}
