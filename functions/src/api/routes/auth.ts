// Sign-in, registration and sign-out (spec section 7), with proof-of-work, rate limiting and 2FA.
import { loginSchema, registerSchema } from '@csp/shared/schemas/auth';
import { Hono } from 'hono';
import { consumeAltcha, newChallenge } from '../../auth/altcha';
import { dummyHash, hashPassword, verifyPassword } from '../../auth/password';
import { isLimited, type RateLimit, recordFailure } from '../../auth/rate-limit';
import { endSession, startSession } from '../../auth/sessions';
import { clearMfaPending, hasMfaPending, setMfaPending, verifyTotpForLogin } from '../../auth/two-factor';
import { AppError } from '../../errors';
import { clientAddress } from '../../http/client-address';
import { createUser, getUserByUsername, toPublicUser } from '../../store/users';
import { readBody } from '../body';
import type { ApiDeps, ApiEnv } from '../deps';

const INVALID = 'Invalid username or password';

function altchaSettings(deps: ApiDeps) {
  return {
    hmacKey: deps.secrets.altchaHmacKey,
    maxNumber: deps.config.ALTCHA_MAX_NUMBER,
    expireSeconds: deps.config.ALTCHA_EXPIRE_SECONDS,
  };
}

function loginLimits(deps: ApiDeps, username: string, ip: string): RateLimit[] {
  const windowSeconds = deps.config.LOGIN_WINDOW_SECONDS;
  return [
    {
      scope: 'login-user',
      subject: username.toLowerCase(),
      max: deps.config.LOGIN_MAX_FAILURES_PER_USER,
      windowSeconds,
    },
    { scope: 'login-ip', subject: ip, max: deps.config.LOGIN_MAX_FAILURES_PER_IP, windowSeconds },
  ];
}

export const authRoutes = new Hono<ApiEnv>()
  .get('/altcha-challenge', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await newChallenge(altchaSettings(c.var.deps)));
  })

  .post('/register', async (c) => {
    const { deps } = c.var;
    const input = await readBody(c, registerSchema);
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
  })

  .post('/login', async (c) => {
    const { deps } = c.var;
    const input = await readBody(c, loginSchema);
    const limits = loginLimits(deps, input.username, clientAddress(c, Boolean(deps.secrets.originVerify)));
    const limited = await Promise.all(limits.map((l) => isLimited(deps.db, l)));
    if (limited.some(Boolean)) {
      throw new AppError(429, 'Too many failed sign-in attempts. Please wait a few minutes and try again.');
    }
    const user = await getUserByUsername(deps.db, input.username);
    // The second step of a 2FA sign-in carries the code; its first step already solved the challenge.
    const secondStep = Boolean(input.totp && user && (await hasMfaPending(c, user.id)));
    if (!secondStep) await consumeAltcha(deps.db, altchaSettings(deps), input.altcha);
    // Same work for an unknown user as for a wrong password: timing must not reveal who exists.
    const ok = await verifyPassword(
      input.password,
      user?.passwordHash ?? (await dummyHash(deps.config.SCRYPT_LOG_N)),
    );
    if (!user || !ok) {
      await Promise.all(limits.map((l) => recordFailure(deps.db, l)));
      throw new AppError(401, INVALID);
    }
    if (user.twoFactorEnabled) {
      if (!input.totp) {
        await setMfaPending(c, user.id);
        throw new AppError(401, 'Two-factor code required', { twoFactorRequired: true });
      }
      if (!(await verifyTotpForLogin(deps, user, input.totp))) {
        await Promise.all(limits.map((l) => recordFailure(deps.db, l)));
        throw new AppError(401, 'Invalid verification code. Please try again.', { twoFactorRequired: true });
      }
      clearMfaPending(c);
    }
    await startSession(c, user);
    c.var.log.info('user signed in', { userId: user.id });
    return c.json(toPublicUser(user));
  })

  .post('/logout', async (c) => {
    await endSession(c);
    return c.json({ success: true });
  });
