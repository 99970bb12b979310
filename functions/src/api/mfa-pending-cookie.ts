// The cookie that names this client's pending 2FA sign-in (auth/two-factor.ts keeps the sign-in itself):
// scoped to /api/login, the only route that reads it, and gone when the pending sign-in expires.
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { MFA_PENDING_SECONDS } from '../auth/two-factor';
import { isSecureRequest } from '../http/public-origin';
import type { ApiEnv } from './deps';

const PENDING_COOKIE = 'csp_mfa_pending';
const PATH = '/api/login';

export function setMfaPendingCookie(c: Context<ApiEnv>, id: string): void {
  setCookie(c, PENDING_COOKIE, id, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: isSecureRequest(c.req.url, c.var.deps.config.PUBLIC_URL),
    path: PATH,
    maxAge: MFA_PENDING_SECONDS,
  });
}

export const mfaPendingCookie = (c: Context<ApiEnv>): string | undefined => getCookie(c, PENDING_COOKIE);

export function clearMfaPendingCookie(c: Context<ApiEnv>): void {
  deleteCookie(c, PENDING_COOKIE, { path: PATH });
}
