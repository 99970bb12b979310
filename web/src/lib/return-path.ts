// Where to go after signing in: the screen that sent the user to /auth (?next=), if it is one of ours.
// Only a same-site path is followed: "/invite/…" yes; "//evil.example", "/\\evil.example" or a full URL,
// never (an open redirect would let a link lead a freshly signed-in user anywhere).

export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

export function safeReturnPath(next: string | null | undefined): string {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return DEFAULT_AFTER_SIGN_IN;
  // Whitespace and control characters (a browser may drop them and read "//…"); /auth itself would loop.
  const unusual = [...next].some((ch) => ch.charCodeAt(0) < 0x21 || ch === '\u007f');
  if (unusual || next.startsWith('/auth')) return DEFAULT_AFTER_SIGN_IN;
  return next;
}

/** /auth, remembering the screen to come back to. */
export function signInPathFrom(location: { pathname: string; search: string }): string {
  const here = `${location.pathname}${location.search}`;
  return here === DEFAULT_AFTER_SIGN_IN || here === '/' ? '/auth' : `/auth?next=${encodeURIComponent(here)}`;
}
