// Two-factor authentication with TOTP (RFC 6238: 30 s steps, 6 digits, one step of drift each way).
// A used time step is recorded so the same code is not accepted twice.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { ApiDeps, ApiEnv } from '../api/deps';
import { isSecureRequest } from '../http/public-origin';
import { epochSeconds, isConditionFailure } from '../store/db';
import { totpStepKey } from '../store/keys';
import type { UserRecord } from '../store/users';
import { open, seal } from './secret-box';

const ISSUER = 'CSP Generator';

export async function newTotpSetup(deps: ApiDeps, user: UserRecord) {
  const secret = generateSecret();
  const uri = generateURI({ issuer: ISSUER, label: user.username, secret });
  // Rendered here: a TOTP secret never goes to a third-party QR service.
  const qrCodeUrl = await QRCode.toDataURL(uri, { margin: 1, width: 220 });
  return { secret, qrCodeUrl, sealed: seal(deps.secrets.totpEncryptionKey, secret) };
}

/** Checks a code against a sealed secret and burns its time step. */
export async function verifyTotp(deps: ApiDeps, userId: string, sealedSecret: string, token: string) {
  if (!/^\d{6}$/.test(token)) return false;
  const secret = open(deps.secrets.totpEncryptionKey, sealedSecret);
  const result = await verify({ secret, token, epochTolerance: 30 });
  if (!result.valid) return false;
  // The step the code belongs to: the current one moved by the drift the check allowed.
  const timeStep = Math.floor(Date.now() / 30_000) + result.delta;
  try {
    await deps.db.doc.send(
      new PutCommand({
        TableName: deps.db.table,
        Item: { ...totpStepKey(userId, timeStep), expiresAt: epochSeconds() + 300 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
  return true;
}

export async function verifyTotpForLogin(deps: ApiDeps, user: UserRecord, token: string) {
  return user.twoFactorSecret ? verifyTotp(deps, user.id, user.twoFactorSecret, token) : false;
}

// Between the two steps of a 2FA sign-in: a short-lived signed cookie saying the password and the
// proof-of-work were accepted for this user, so the code step need not solve another challenge.
const PENDING_COOKIE = 'csp_mfa_pending';
const PENDING_SECONDS = 300;

const keyOf = (deps: ApiDeps) => new TextEncoder().encode(`${deps.secrets.sessionSecret}:mfa`);

export async function setMfaPending(c: Context<ApiEnv>, userId: string) {
  const { deps } = c.var;
  const token = await new SignJWT({ uid: userId })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(epochSeconds() + PENDING_SECONDS)
    .sign(keyOf(deps));
  setCookie(c, PENDING_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: isSecureRequest(c.req.url, deps.config.PUBLIC_URL),
    path: '/api/login',
    maxAge: PENDING_SECONDS,
  });
}

export async function hasMfaPending(c: Context<ApiEnv>, userId: string): Promise<boolean> {
  const token = getCookie(c, PENDING_COOKIE);
  if (!token) return false;
  try {
    const { payload } = await jwtVerify(token, keyOf(c.var.deps), { algorithms: ['HS256'] });
    return payload.uid === userId;
  } catch {
    return false;
  }
}

export function clearMfaPending(c: Context<ApiEnv>) {
  deleteCookie(c, PENDING_COOKIE, { path: '/api/login' });
}
