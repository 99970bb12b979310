// The session cookie's value: a jose-signed (HS256) token that names a session id. A forged or tampered
// token fails the signature check before the table is asked; the session item decides the rest.
import { jwtVerify, SignJWT } from 'jose';

export interface SessionTokenKey {
  key: Uint8Array;
}

export function sessionTokenKey(secret: string): SessionTokenKey {
  return { key: new TextEncoder().encode(secret) };
}

export async function signSessionToken(k: SessionTokenKey, sid: string, expiresAt: number): Promise<string> {
  return new SignJWT({ sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(k.key);
}

export async function readSessionToken(k: SessionTokenKey, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, k.key, { algorithms: ['HS256'] });
    return typeof payload.sid === 'string' ? payload.sid : null;
  } catch {
    return null;
  }
}

/** `__Host-` binds the cookie to our exact origin over https; plain http (local) cannot use the prefix. */
export const sessionCookieName = (secure: boolean) => (secure ? '__Host-csp_session' : 'csp_session');
