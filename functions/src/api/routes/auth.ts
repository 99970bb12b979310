// Sign-in, registration and sign-out (spec section 7), with proof-of-work, rate limiting and 2FA.
import { loginSchema, registerSchema } from '@csp/shared/schemas/auth';
import { Hono } from 'hono';
import { codeLimit, passwordLimit } from '../../auth/account-limits';
import { consumeAltcha, newChallenge } from '../../auth/altcha';
import { dummyHash, hashPassword, verifyPassword } from '../../auth/password';
import { type RateLimit, refundAttempts, takeAttempts } from '../../auth/rate-limit';
import { redeemRecoveryCode } from '../../auth/recovery-codes';
import {
  consumeMfaPending,
  readMfaPending,
  recordWrongCode,
  startMfaPending,
  verifyTotpForLogin,
} from '../../auth/two-factor';
import { AppError } from '../../errors';
import { clientAddress, rateLimitSubject, truncatedAddress } from '../../http/client-address';
import { createUser, getUserByUsername, toPublicUser } from '../../store/users';
import type { ApiDeps, ApiEnv } from '../deps';
import { clearMfaPendingCookie, mfaPendingCookie, setMfaPendingCookie } from '../mfa-pending-cookie';
import { endSession, startSession } from '../sessions';
import { jsonBody } from '../validate';

const INVALID = 'Invalid username or password';

function altchaSettings(deps: ApiDeps) {
  return {
    hmacKey: deps.secrets.altchaHmacKey,
    maxNumber: deps.config.ALTCHA_MAX_NUMBER,
    expireSeconds: deps.config.ALTCHA_EXPIRE_SECONDS,
  };
}

function loginLimits(deps: ApiDeps, username: string, address: string): RateLimit[] {
  return [
    // The account's counter, which re-authentications of a signed-in user share (auth/account-limits.ts).
    passwordLimit(deps.config, username),
    // One IPv6 host has a whole /64 to rotate through: its addresses count as one client.
    {
      scope: 'login-ip',
      subject: rateLimitSubject(address),
      max: deps.config.LOGIN_MAX_FAILURES_PER_IP,
      windowSeconds: deps.config.LOGIN_WINDOW_SECONDS,
    },
  ];
}

const TOO_MANY = 'Too many failed sign-in attempts. Please wait a few minutes and try again.';
const CODE_EXPIRED = 'Your sign-in has expired. Please enter your password again.';

// Each at its own path under /api (spec section 7), so one sub-app each.

/** /api/altcha-challenge: a proof-of-work challenge for sign-in and registration. */
export const challengeRoutes = new Hono<ApiEnv>().get('/', async (c) => {
  c.header('Cache-Control', 'no-store');
  return c.json(await newChallenge(altchaSettings(c.var.deps)));
});

/** /api/register: a new account, signed in. */
export const registerRoutes = new Hono<ApiEnv>().post('/', jsonBody(registerSchema), async (c) => {
  const { deps } = c.var;
  const input = c.req.valid('json');
  await consumeAltcha(deps.db, altchaSettings(deps), input.altcha);
  const user = await createUser(deps.db, {
    username: input.username,
    email: input.email,
    passwordHash: await hashPassword(input.password, deps.config.SCRYPT_LOG_N),
    firstName: input.firstName,
    lastName: input.lastName,
  });
  await startSession(c, user);
  c.var.log.info('user registered', { userId: user.id });
  return c.json(toPublicUser(user), 201);
});

/** /api/login: sign-in, in two steps when the account has 2FA. */
export const loginRoutes = new Hono<ApiEnv>().post('/', jsonBody(loginSchema), async (c) => {
  const { deps } = c.var;
  const input = c.req.valid('json');
  const address = clientAddress(c, Boolean(deps.secrets.originVerify));
  const where = { address: truncatedAddress(address) };
  const user = await getUserByUsername(deps.db, input.username);
  // The second step of a 2FA sign-in carries the code (or a recovery code); its first step already solved
  // the challenge.
  const secondStep = Boolean(input.totp || input.recoveryCode);
  const pending = secondStep && user ? await readMfaPending(deps.db, mfaPendingCookie(c), user.id) : null;
  if (secondStep && !pending) {
    c.var.log.warn('sign-in failed: no pending 2FA sign-in', { ...where, userId: user?.id });
    throw new AppError(401, CODE_EXPIRED, { twoFactorRequired: false });
  }
  if (!pending) await consumeAltcha(deps.db, altchaSettings(deps), input.altcha);
  // An attempt is taken before the password is checked, atomically, so parallel guesses cannot pass
  // the limit; a correct password gives it back.
  const limits = loginLimits(deps, input.username, address);
  const refused = await takeAttempts(deps.db, limits);
  if (refused) {
    c.var.log.warn('sign-in refused: too many failures', {
      ...where,
      userId: user?.id,
      limit: refused.scope,
    });
    throw new AppError(429, TOO_MANY);
  }
  // Same work for an unknown user as for a wrong password: timing must not reveal who exists.
  const ok = await verifyPassword(
    input.password,
    user?.passwordHash ?? (await dummyHash(deps.config.SCRYPT_LOG_N)),
  );
  if (!user || !ok) {
    c.var.log.warn('sign-in failed: wrong username or password', { ...where, userId: user?.id });
    throw new AppError(401, INVALID);
  }
  await refundAttempts(deps.db, limits);
  if (user.twoFactorEnabled) {
    if (!pending) {
      setMfaPendingCookie(c, await startMfaPending(deps.db, user.id));
      throw new AppError(401, 'Two-factor code required', { twoFactorRequired: true });
    }
    const perUser = codeLimit(deps.config, user.id);
    if (await takeAttempts(deps.db, [perUser])) {
      c.var.log.warn('sign-in refused: too many wrong codes', { ...where, userId: user.id });
      throw new AppError(429, TOO_MANY);
    }
    // A recovery code counts like a TOTP code: the same limits, and a wrong one is a wrong code.
    const passed = input.totp
      ? await verifyTotpForLogin(deps, user, input.totp)
      : await redeemRecoveryCode(deps.db, user, input.recoveryCode ?? '');
    if (!passed) {
      const left = await recordWrongCode(deps.db, pending);
      c.var.log.warn(`sign-in failed: wrong ${input.totp ? '2FA' : 'recovery'} code`, {
        ...where,
        userId: user.id,
      });
      if (!left) throw new AppError(401, CODE_EXPIRED, { twoFactorRequired: false });
      throw new AppError(
        401,
        input.totp
          ? 'Invalid verification code. Please try again.'
          : 'This recovery code is not valid or was already used.',
        { twoFactorRequired: true },
      );
    }
    if (!input.totp) c.var.log.info('recovery code used', { userId: user.id });
    await refundAttempts(deps.db, [perUser]);
    // Single use: of two requests with the same pending sign-in, one gets the session.
    clearMfaPendingCookie(c);
    if (!(await consumeMfaPending(deps.db, pending))) throw new AppError(401, CODE_EXPIRED);
  }
  await startSession(c, user);
  c.var.log.info('user signed in', { userId: user.id });
  return c.json(toPublicUser(user));
});

/** /api/logout: the session ends. */
export const logoutRoutes = new Hono<ApiEnv>().post('/', async (c) => {
  await endSession(c);
  return c.json({ success: true });
});
