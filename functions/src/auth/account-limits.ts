// The per-account attempt limits, one per kind of secret, shared by sign-in and by every check of a signed-in
// user's password or code (password change, email change, 2FA disable). One counter per secret bounds the
// guesses at that secret whichever door they come through: a stolen session gets no allowance of its own
// beside sign-in's. What it can do to the owner is what anyone who knows the username can already do at
// sign-in: spend the window's attempts, so sign-in waits until that window ends, never longer.
import type { Config } from '../config';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import type { UserRecord } from '../store/users';
import { type RateLimit, refundAttempt, takeAttempt } from './rate-limit';
import { MFA_MAX_WRONG_CODES } from './two-factor';

/** Wrong passwords per username (sign-in knows a username, not always a user). */
export const passwordLimit = (config: Config, username: string): RateLimit => ({
  scope: 'login-user',
  subject: username.toLowerCase(),
  max: config.LOGIN_MAX_FAILURES_PER_USER,
  windowSeconds: config.LOGIN_WINDOW_SECONDS,
});

/** Wrong 2FA codes per user, across pending sign-ins and re-authentications. */
export const codeLimit = (config: Config, userId: string): RateLimit => ({
  scope: 'totp-user',
  subject: userId,
  max: MFA_MAX_WRONG_CODES,
  windowSeconds: config.LOGIN_WINDOW_SECONDS,
});

const waitMinutes = (config: Config) => Math.ceil(config.LOGIN_WINDOW_SECONDS / 60);

export const tooManyPasswords = (config: Config) =>
  `Too many wrong passwords for this account. Please wait up to ${waitMinutes(config)} minutes and try again.`;
export const tooManyCodes = (config: Config) =>
  `Too many wrong codes for this account. Please wait up to ${waitMinutes(config)} minutes and try again.`;

/**
 * Checks a secret of the signed-in user the way sign-in does: an attempt is taken from the account's counter
 * first, atomically (so parallel guesses cannot pass the limit), and given back when the secret is right.
 * Answers 429 when no attempt is left, without checking. `action` names the request in the logs.
 */
export async function checkWithAttempt(
  { db, config, log }: { db: Db; config: Config; log: Logger },
  user: UserRecord,
  secret: 'password' | 'code',
  action: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const limit = secret === 'password' ? passwordLimit(config, user.username) : codeLimit(config, user.id);
  if (!(await takeAttempt(db, limit))) {
    log.warn(`${action} refused: too many wrong ${secret}s`, { userId: user.id, limit: limit.scope });
    throw new AppError(429, secret === 'password' ? tooManyPasswords(config) : tooManyCodes(config));
  }
  if (!(await check())) {
    log.warn(`${action} refused: wrong ${secret}`, { userId: user.id });
    return false;
  }
  await refundAttempt(db, limit);
  return true;
}
