// Starting and ending a signed-in session: the table item plus the cookie that names it.
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
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
  c.set('session', session);
  c.set('user', user);
}

export async function endSession(c: Context<ApiEnv>): Promise<void> {
  const { deps } = c.var;
  if (c.var.session) await deleteSession(deps.db, c.var.session.sid);
  const secure = isSecureRequest(c.req.url, deps.config.PUBLIC_URL);
  deleteCookie(c, sessionCookieName(secure), { path: '/', secure });
  c.set('session', null);
  c.set('user', null);
}
