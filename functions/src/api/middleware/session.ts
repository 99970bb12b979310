// Reads the session cookie, checks its signature, loads the live session and its user.
import { deleteCookie, getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { readSessionToken, sessionCookieName, sessionTokenKey } from '../../auth/session-token';
import { AppError } from '../../errors';
import { isSecureRequest } from '../../http/public-origin';
import { getSession } from '../../store/sessions';
import { getUser } from '../../store/users';
import type { ApiEnv } from '../deps';
import { clearSignedInMarker, hasSignedInMarker, setSignedInMarker } from '../sessions';

export function loadSession() {
  return createMiddleware<ApiEnv>(async function loadSessionMiddleware(c, next) {
    const { deps } = c.var;
    // A request made with an API token is that token's alone: its cookies do not count.
    if (c.var.apiToken) return next();
    const secure = isSecureRequest(c.req.url, deps.config.PUBLIC_URL);
    const name = sessionCookieName(secure);
    const token = getCookie(c, name);
    if (token) {
      const sid = await readSessionToken(sessionTokenKey(deps.secrets.sessionSecret), token);
      const session = sid ? await getSession(deps.db, sid) : null;
      const user = session ? await getUser(deps.db, session.userId) : null;
      if (session && user) {
        c.set('session', session);
        c.set('user', user);
        // A session started before the marker existed (or whose marker was cleared) gets it back.
        if (!hasSignedInMarker(c, secure)) setSignedInMarker(c, secure, session.expiresAt);
      } else {
        deleteCookie(c, name, { path: '/', secure });
        clearSignedInMarker(c, secure);
      }
    } else {
      // A marker without a session (the session cookie expired first, or was removed) announces nothing.
      clearSignedInMarker(c, secure);
    }
    return next();
  });
}

export const requireUser = createMiddleware<ApiEnv>(async function requireUserMiddleware(c, next) {
  if (!c.var.user) throw new AppError(401, 'Unauthorized');
  return next();
});

export const requireAdmin = createMiddleware<ApiEnv>(async function requireAdminMiddleware(c, next) {
  if (!c.var.user) throw new AppError(401, 'Unauthorized');
  if (c.var.user.role !== 'admin') throw new AppError(403, 'Admin access required');
  return next();
});

/** The signed-in user of a route behind requireUser. */
export function currentUser(c: { var: ApiEnv['Variables'] }) {
  const user = c.var.user;
  if (!user) throw new AppError(401, 'Unauthorized');
  return user;
}
