// The value CloudFront sends as x-origin-verify, proving a request came through it (the API's and the
// report function's own URLs are public). Rotatable without downtime: the secret holds `current` (what
// CloudFront sends) and `previous` (still accepted), and every function re-reads it every few minutes, so
// during a rotation both values pass until CloudFront sends the new one (README, "Rotating the
// origin-verify secret").
import { timingSafeEqual } from 'node:crypto';

/** How long a function trusts what it read from Secrets Manager. */
export const ORIGIN_VERIFY_REFRESH_MS = 5 * 60_000;
const RETRY_MS = 30_000;

/** The accepted values in a secret string: {"current","previous"} JSON, or one plain value. */
export function acceptedValues(secretString: string | undefined): string[] {
  if (!secretString) return [];
  try {
    const parsed = JSON.parse(secretString) as unknown;
    if (parsed && typeof parsed === 'object') {
      const { current, previous } = parsed as { current?: unknown; previous?: unknown };
      return [current, previous].filter((v): v is string => typeof v === 'string' && v.length >= 16);
    }
  } catch {
    // a plain value
  }
  return [secretString];
}

/** Whether the header carries one of the accepted values (compared in constant time). */
export function carriesOriginVerify(header: string | undefined, accepted: readonly string[]): boolean {
  const got = Buffer.from(header ?? '');
  let ok = false;
  for (const value of accepted) {
    const want = Buffer.from(value);
    if (got.length === want.length && timingSafeEqual(got, want)) ok = true;
  }
  return ok;
}

export interface OriginVerify {
  /** The values accepted now; a stale read starts a refresh in the background. */
  accepted(): readonly string[];
}

/** A fixed set (locally, and in tests of the Lambda entries). */
export const fixedOriginVerify = (values: readonly string[]): OriginVerify => ({ accepted: () => values });

/**
 * Values read through `load` (Secrets Manager), kept `refreshMs`, then re-read in the background: a request
 * never waits for Secrets Manager after the first read, and a failed refresh keeps the last good values.
 */
export async function refreshingOriginVerify(
  load: () => Promise<string | undefined>,
  opts: { refreshMs?: number; now?: () => number; onError?: (err: unknown) => void } = {},
): Promise<OriginVerify> {
  const { refreshMs = ORIGIN_VERIFY_REFRESH_MS, now = Date.now } = opts;
  let values = acceptedValues(await load());
  let readAt = now();
  let refreshing = false;
  return {
    accepted() {
      if (!refreshing && now() - readAt >= refreshMs) {
        refreshing = true;
        load()
          .then((s) => {
            const next = acceptedValues(s);
            if (next.length > 0) values = next;
            readAt = now();
          })
          .catch((err) => {
            readAt = now() - refreshMs + RETRY_MS; // try again soon, not on every request
            opts.onError?.(err);
          })
          .finally(() => {
            refreshing = false;
          });
      }
      return values;
    },
  };
}

/** The secret after a rotation: a fresh current value, and the value CloudFront sends now as previous. */
export function rotatedSecret(secretString: string | undefined, fresh: string): string {
  const [current] = acceptedValues(secretString);
  return JSON.stringify({ current: fresh, previous: current ?? '' });
}
