// Fixed-window attempt counters, kept in the table so every Lambda instance sees the same count: sign-in and
// re-authentication failures (per username, per client address with IPv6 by /64, per user for 2FA codes)
// and invitations sent per day. An attempt is taken atomically before the secret is checked (a conditional
// counter update, never a read then a write), so parallel guesses cannot exceed the limit; a successful
// attempt is given back. Items expire with the window (TTL attribute expiresAt); store/rate-limits.ts holds
// the counters.
import { type Db, epochSeconds } from '../store/db';
import { countInWindow, uncountInWindow } from '../store/rate-limits';

export interface RateLimit {
  scope: string;
  subject: string;
  max: number;
  windowSeconds: number;
}

const windowOf = (l: RateLimit, now: number) => Math.floor(now / l.windowSeconds);

/** Takes one attempt from the window's allowance; false (and nothing counted) when none is left. */
export async function takeAttempt(db: Db, l: RateLimit, now = epochSeconds()): Promise<boolean> {
  const window = windowOf(l, now);
  const expiresAt = (window + 1) * l.windowSeconds + 60;
  return countInWindow(db, { scope: l.scope, subject: l.subject, window }, l.max, expiresAt);
}

/** Gives an attempt back (it succeeded, or another limit refused the request). */
export async function refundAttempt(db: Db, l: RateLimit, now = epochSeconds()): Promise<void> {
  await uncountInWindow(db, { scope: l.scope, subject: l.subject, window: windowOf(l, now) });
}

/**
 * Takes one attempt from every limit, or from none: when one refuses, those already taken are given back.
 * Returns the limit that refused, or null.
 */
export async function takeAttempts(db: Db, limits: readonly RateLimit[]): Promise<RateLimit | null> {
  const now = epochSeconds();
  const taken: RateLimit[] = [];
  for (const l of limits) {
    if (await takeAttempt(db, l, now)) {
      taken.push(l);
      continue;
    }
    await Promise.all(taken.map((t) => refundAttempt(db, t, now)));
    return l;
  }
  return null;
}

export async function refundAttempts(db: Db, limits: readonly RateLimit[]): Promise<void> {
  const now = epochSeconds();
  await Promise.all(limits.map((l) => refundAttempt(db, l, now)));
}
