// Starting and ending a signed-in session: the table item plus the cookie that names it, and the readable
// signed-in marker beside it (shared/src/auth/signed-in-cookie.ts says why).
import { randomBytes } from 'node:crypto';
import { signedInCookieName } from '@csp/shared/auth/signed-in-cookie';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { sessionCookieName, sessionTokenKey, signSessionToken } from '../auth/session-token';
import { isSecureRequest } from '../http/public-origin';
import { epochSeconds } from '../store/db';
import { createSession, deleteSession } from '../store/sessions';
import type { UserRecord } from '../store/users';
import type { ApiEnv } from './deps';

export async function startSession(c: Context<ApiEnv>, user: UserRecord): Promise<void> {
  const { deps } = c.var;
  // A new session id at every sign-in: a session fixed before login is worthless after it.
  if (c.var.session) await deleteSession(deps.db, c.var.session.sid);
  const sid = randomBytes(32).toString('base64url');
  const expiresAt = epochSeconds() + Math.round(deps.config.SESSION_TTL_HOURS * 3600);
  const session = await createSession(deps.db, { sid, userId: user.id, sess: {}, expiresAt });
  const token = await signSessionToken(sessionTokenKey(deps.secrets.sessionSecret), sid, expiresAt);
  const secure = isSecureRequest(c.req.url, deps.config.PUBLIC_URL);
  setCookie(c, sessionCookieName(secure), token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure,
    path: '/',
    expires: new Date(expiresAt * 1000),
  });
  setSignedInMarker(c, secure, expiresAt);
  c.set('session', session);
  c.set('user', user);
}

export async function endSession(c: Context<ApiEnv>): Promise<void> {
  const { deps } = c.var;
  if (c.var.session) await deleteSession(deps.db, c.var.session.sid);
  const secure = isSecureRequest(c.req.url, deps.config.PUBLIC_URL);
  deleteCookie(c, sessionCookieName(secure), { path: '/', secure });
  clearSignedInMarker(c, secure);
  c.set('session', null);
  c.set('user', null);
}

/** The marker, readable by the page's scripts, living as long as the session it announces. */
export function setSignedInMarker(c: Context, secure: boolean, expiresAt: number): void {
  setCookie(c, signedInCookieName(secure), '1', {
    sameSite: 'Lax',
    secure,
    path: '/',
    expires: new Date(expiresAt * 1000),
  });
}

export function clearSignedInMarker(c: Context, secure: boolean): void {
  if (getCookie(c, signedInCookieName(secure)) !== undefined) {
    deleteCookie(c, signedInCookieName(secure), { path: '/', secure });
  }
}

export const hasSignedInMarker = (c: Context, secure: boolean) =>
  getCookie(c, signedInCookieName(secure)) !== undefined;
