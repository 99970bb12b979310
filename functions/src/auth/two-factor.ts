// Two-factor authentication with TOTP (RFC 6238: 30 s steps, 6 digits, one step of drift each way).
// A used time step is recorded so the same code is not accepted twice.
import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Secrets } from '../secrets';
import { type Db, epochSeconds } from '../store/db';
import {
  burnTotpStep,
  countWrongCode,
  getMfaPending,
  putMfaPending,
  takeMfaPending,
} from '../store/two-factor';
import type { UserRecord } from '../store/users';
import { open, seal } from './secret-box';

const ISSUER = 'CSP Generator';

/** The table (for burnt time steps) and the key that seals TOTP secrets. */
export interface TotpDeps {
  db: Db;
  secrets: Pick<Secrets, 'totpEncryptionKey'>;
}

export async function newTotpSetup(deps: TotpDeps, user: UserRecord) {
  const secret = generateSecret();
  const uri = generateURI({ issuer: ISSUER, label: user.username, secret });
  // Rendered here: a TOTP secret never goes to a third-party QR service.
  const qrCodeUrl = await QRCode.toDataURL(uri, { margin: 1, width: 220 });
  return { secret, qrCodeUrl, sealed: seal(deps.secrets.totpEncryptionKey, secret) };
}

/** Checks a code against a sealed secret and burns its time step. */
export async function verifyTotp(deps: TotpDeps, userId: string, sealedSecret: string, token: string) {
  if (!/^\d{6}$/.test(token)) return false;
  const secret = open(deps.secrets.totpEncryptionKey, sealedSecret);
  const result = await verify({ secret, token, epochTolerance: 30 });
  // A TOTP result names the time step the code matched in: that step is burnt, not one from a second clock
  // read (which may already be the next step).
  if (!result.valid || !('timeStep' in result)) return false;
  return burnTotpStep(deps.db, userId, result.timeStep);
}

export async function verifyTotpForLogin(deps: TotpDeps, user: UserRecord, token: string) {
  return user.twoFactorSecret ? verifyTotp(deps, user.id, user.twoFactorSecret, token) : false;
}

// Between the two steps of a 2FA sign-in: an item in the table, named by an unguessable id in a cookie
// scoped to /api/login, saying the password and the proof-of-work were accepted for this user. It is used
// once, expires after 5 minutes, and dies after MFA_MAX_WRONG_CODES wrong codes.
export const MFA_PENDING_SECONDS = 300;
export const MFA_MAX_WRONG_CODES = 5;

/** Stores a pending sign-in for the user; answers its id, which the API puts in the cookie. */
export async function startMfaPending(db: Db, userId: string): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await putMfaPending(db, id, userId, epochSeconds() + MFA_PENDING_SECONDS);
  return id;
}

/** The id of this client's live pending sign-in for the user, or null (none, expired, someone else's). */
export async function readMfaPending(db: Db, id: string | undefined, userId: string): Promise<string | null> {
  if (!id || id.length > 100) return null;
  const pending = await getMfaPending(db, id);
  // The TTL deletes expired items only eventually: the expiry is checked here.
  if (!pending || pending.userId !== userId || pending.expiresAt <= epochSeconds()) return null;
  return id;
}

/** Counts a wrong code; the pending sign-in ends at the limit. False when no attempt was left. */
export async function recordWrongCode(db: Db, id: string): Promise<boolean> {
  return countWrongCode(db, id, MFA_MAX_WRONG_CODES);
}

/** Uses the pending sign-in up: true for exactly one of any concurrent callers. */
export async function consumeMfaPending(db: Db, id: string): Promise<boolean> {
  return takeMfaPending(db, id);
}
