// The signed-in user: profile, password and two-factor authentication (spec sections 2 "Settings", 7).
import {
  passwordChangeSchema,
  profileUpdateSchema,
  recoveryCodesRegenerateSchema,
  twoFactorDisableSchema,
} from '@csp/shared/schemas/auth';
import { Hono } from 'hono';
import * as z from 'zod';
import { recordAchievementEvent } from '../../achievements/record';
import { checkWithAttempt } from '../../auth/account-limits';
import { hashPassword, verifyPassword } from '../../auth/password';
import { newRecoveryCodes, recoveryCodesLeft } from '../../auth/recovery-codes';
import { newTotpSetup, verifyTotp } from '../../auth/two-factor';
import { AppError, fieldError } from '../../errors';
import { putContact } from '../../store/contacts';
import {
  abandonTwoFactorSetup,
  disableTwoFactor,
  enableTwoFactor,
  replaceRecoveryCodes,
} from '../../store/recovery-codes';
import { deleteUserSessions } from '../../store/sessions';
import { changeUserEmail, toPublicUser, updateUserFields } from '../../store/users';
import type { ApiEnv } from '../deps';
import { currentUser, requireUser } from '../middleware/session';
import { jsonBody } from '../validate';

const WRONG_PASSWORD = 'Current password is incorrect';

/** What an attempt-limited check of the user's secret needs from the request. */
const attempts = (c: { var: ApiEnv['Variables'] }) => ({ ...c.var.deps, log: c.var.log });

const verifySchema = z.object({
  token: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code must be exactly 6 digits'),
});

export const userRoutes = new Hono<ApiEnv>()
  .use(requireUser)
  .get('/', (c) => c.json(toPublicUser(currentUser(c))))

  .patch('/profile', jsonBody(profileUpdateSchema), async (c) => {
    const { db } = c.var.deps;
    const input = c.req.valid('json');
    let user = currentUser(c);
    if (input.email !== undefined && input.email !== user.email?.toLowerCase()) {
      if (!input.currentPassword)
        throw fieldError(400, 'currentPassword', 'Enter your current password to change your email');
      const { currentPassword } = input;
      const proven = await checkWithAttempt(attempts(c), user, 'password', 'email change', () =>
        verifyPassword(currentPassword, user.passwordHash),
      );
      if (!proven) throw fieldError(400, 'currentPassword', WRONG_PASSWORD);
      user = await changeUserEmail(db, user, input.email);
      await putContact(db, user.id, user.email);
    }
    if (input.firstName !== undefined || input.lastName !== undefined) {
      user = await updateUserFields(db, user.id, { firstName: input.firstName, lastName: input.lastName });
    }
    return c.json(toPublicUser(user));
  })

  .patch('/password', jsonBody(passwordChangeSchema), async (c) => {
    const { db, config } = c.var.deps;
    const input = c.req.valid('json');
    const user = currentUser(c);
    const proven = await checkWithAttempt(attempts(c), user, 'password', 'password change', () =>
      verifyPassword(input.currentPassword, user.passwordHash),
    );
    if (!proven) throw fieldError(400, 'currentPassword', WRONG_PASSWORD);
    await updateUserFields(db, user.id, {
      passwordHash: await hashPassword(input.newPassword, config.SCRYPT_LOG_N),
    });
    // Every other session of this account ends: a changed password must lock out whoever had the old one.
    await deleteUserSessions(db, user.id, c.var.session?.sid);
    return c.json({ success: true });
  })

  .post('/2fa/setup', async (c) => {
    const { deps } = c.var;
    const user = currentUser(c);
    if (user.twoFactorEnabled) throw new AppError(409, 'Two-factor authentication is already enabled');
    const setup = await newTotpSetup(deps, user);
    await updateUserFields(deps.db, user.id, { twoFactorSecret: setup.sealed });
    c.header('Cache-Control', 'no-store');
    return c.json({ qrCodeUrl: setup.qrCodeUrl, secret: setup.secret });
  })

  .post('/2fa/verify', jsonBody(verifySchema), async (c) => {
    const { deps } = c.var;
    const { token } = c.req.valid('json');
    const user = currentUser(c);
    if (user.twoFactorEnabled) throw new AppError(409, 'Two-factor authentication is already enabled');
    if (!user.twoFactorSecret) throw new AppError(400, 'Start the two-factor setup first');
    if (!(await verifyTotp(deps, user.id, user.twoFactorSecret, token))) {
      throw new AppError(400, 'Invalid verification code. Please try again.');
    }
    const { codes, hashes } = newRecoveryCodes();
    const updated = await enableTwoFactor(deps.db, user.id, user.twoFactorSecret, hashes);
    if (!updated)
      throw new AppError(409, 'The two-factor setup was cancelled or restarted. Please start again.');
    await recordAchievementEvent(deps.db, c.var.log, user.id, { atLeast: { twoFactor: 1 } });
    // Sessions opened with the password alone end: from now on a sign-in needs the code too.
    await deleteUserSessions(deps.db, user.id, c.var.session?.sid);
    c.var.log.info('two-factor authentication enabled', { userId: user.id });
    // The recovery codes are shown this once: only their hashes are kept.
    c.header('Cache-Control', 'no-store');
    return c.json({ ...toPublicUser(updated), recoveryCodes: codes });
  })

  /** Cancel during setup: the unverified secret is dropped and 2FA stays off. */
  .post('/2fa/cancel', async (c) => {
    const user = currentUser(c);
    if (user.twoFactorEnabled) throw new AppError(409, 'Two-factor authentication is already enabled');
    if (!(await abandonTwoFactorSetup(c.var.deps.db, user.id))) {
      throw new AppError(409, 'Two-factor authentication is already enabled');
    }
    return c.json({ success: true });
  })

  .get('/2fa/recovery-codes', (c) => {
    const user = currentUser(c);
    return c.json({ enabled: user.twoFactorEnabled, left: recoveryCodesLeft(user) });
  })

  /** New codes, shown once; the old ones stop working. Needs the password. */
  .post('/2fa/recovery-codes', jsonBody(recoveryCodesRegenerateSchema), async (c) => {
    const { deps } = c.var;
    const { password } = c.req.valid('json');
    const user = currentUser(c);
    if (!user.twoFactorEnabled) throw new AppError(409, 'Two-factor authentication is not enabled');
    const proven = await checkWithAttempt(attempts(c), user, 'password', 'recovery codes', () =>
      verifyPassword(password, user.passwordHash),
    );
    if (!proven) throw new AppError(400, 'Current password is incorrect');
    const { codes, hashes } = newRecoveryCodes();
    if (!(await replaceRecoveryCodes(deps.db, user.id, hashes))) {
      throw new AppError(409, 'Two-factor authentication is not enabled');
    }
    c.var.log.info('two-factor recovery codes regenerated', { userId: user.id });
    c.header('Cache-Control', 'no-store');
    return c.json({ recoveryCodes: codes });
  })

  .post('/2fa/disable', jsonBody(twoFactorDisableSchema), async (c) => {
    const { deps } = c.var;
    const input = c.req.valid('json');
    const user = currentUser(c);
    if (!user.twoFactorEnabled) throw new AppError(409, 'Two-factor authentication is not enabled');
    const { token, password } = input;
    const proven = token
      ? await checkWithAttempt(attempts(c), user, 'code', '2FA disable', async () =>
          user.twoFactorSecret ? verifyTotp(deps, user.id, user.twoFactorSecret, token) : false,
        )
      : await checkWithAttempt(attempts(c), user, 'password', '2FA disable', () =>
          verifyPassword(password ?? '', user.passwordHash),
        );
    if (!proven) {
      throw new AppError(
        400,
        input.token ? 'Invalid verification code. Please try again.' : 'Current password is incorrect',
      );
    }
    c.var.log.info('two-factor authentication disabled', { userId: user.id });
    const updated = await disableTwoFactor(deps.db, user.id);
    return c.json(toPublicUser(updated));
  });
