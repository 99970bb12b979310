// Webhook deliveries are signed so a receiver can tell ours from anyone's: HMAC-SHA256, keyed with the
// webhook's own secret, over "<timestamp>.<raw body>", sent as
//   X-CSP-Generator-Signature: t=<unix seconds>,v1=<hex digest>
// (the scheme Stripe made familiar). The timestamp is inside the signed text, so a captured delivery
// cannot be replayed later with a fresh time; receivers refuse signatures older than the tolerance.
// verifyWebhookSignature is the reference a receiver's check follows (the README will document it with
// the deliveries).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-CSP-Generator-Signature';
/** Receivers should refuse a signature whose timestamp is further than this from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function digest(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The signature header's value for `body` sent at `now` (ms). */
export function signWebhook(secret: string, body: string, now = Date.now()): string {
  const t = Math.floor(now / 1000);
  return `t=${t},v1=${digest(secret, t, body)}`;
}

export type SignatureCheck = { valid: true } | { valid: false; reason: string };

/** Checks a delivery as a receiver must: the header's shape, the time, then the HMAC in constant time. */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  now = Date.now(),
): SignatureCheck {
  const parts = new Map(
    (header ?? '').split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1))
    return { valid: false, reason: 'malformed signature' };
  if (Math.abs(Math.floor(now / 1000) - t) > SIGNATURE_TOLERANCE_SECONDS) {
    return { valid: false, reason: 'signature too old' };
  }
  const expected = Buffer.from(digest(secret, t, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'))
    ? { valid: true }
    : { valid: false, reason: 'signature does not match' };
}
