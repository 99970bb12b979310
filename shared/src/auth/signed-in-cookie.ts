// The signed-in marker: a cookie the server sets and clears together with the session cookie, with the same
// life, that the web app can read (the session cookie is HttpOnly). It only says "a session may exist": the
// app asks GET /api/user when it is there, and without it knows a visitor without asking (a first visit
// would otherwise start with a request answered 401, logged by the browser as an error, and wait for it
// before showing anything). It grants nothing: the session cookie alone authenticates, so a forged marker
// costs one request answered 401, and a missing one on a live session is set again by the next API call.

/** `__Host-` over https, as the session cookie's name (plain http, local, cannot use the prefix). */
export const signedInCookieName = (secure: boolean) => (secure ? '__Host-csp_signed_in' : 'csp_signed_in');

/** Whether a Cookie header (or `document.cookie`) holds the marker, under either name. */
export function hasSignedInCookie(cookies: string): boolean {
  return /(?:^|;\s*)(?:__Host-)?csp_signed_in=/.test(cookies);
}
