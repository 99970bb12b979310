import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_TOLERANCE_SECONDS, signWebhook, verifyWebhookSignature } from './webhook-signature';

const secret = 'whsec_test_0123456789';
const body = JSON.stringify({ text: 'New script on shop.example.com', alert: { kind: 'script-added' } });
const now = Date.UTC(2026, 10, 26, 12, 0, 0);

describe('webhook signatures', () => {
  it('signs HMAC-SHA256 over "<t>.<body>", which an independent computation reproduces', () => {
    const header = signWebhook(secret, body, now);
    const t = now / 1000;
    expect(header).toBe(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`);
    expect(verifyWebhookSignature(secret, body, header, now)).toEqual({ valid: true });
  });

  it('refuses a tampered body, another secret, a moved timestamp and a replay after the tolerance', () => {
    const header = signWebhook(secret, body, now);
    expect(verifyWebhookSignature(secret, body.replace('New', 'Old'), header, now)).toMatchObject({
      valid: false,
      reason: 'signature does not match',
    });
    expect(verifyWebhookSignature('whsec_other', body, header, now).valid).toBe(false);
    const moved = header.replace(/t=\d+/, `t=${now / 1000 + 1}`);
    expect(verifyWebhookSignature(secret, body, moved, now).valid).toBe(false);
    const late = now + (SIGNATURE_TOLERANCE_SECONDS + 1) * 1000;
    expect(verifyWebhookSignature(secret, body, header, late)).toMatchObject({ reason: 'signature too old' });
  });

  it('refuses malformed headers without throwing', () => {
    for (const header of [
      null,
      '',
      'v1=abc',
      't=x,v1=00',
      `t=1,v1=${'g'.repeat(64)}`,
      `t=1,v1=${'a'.repeat(63)}`,
    ]) {
      expect(verifyWebhookSignature(secret, body, header, now)).toMatchObject({ valid: false });
    }
  });
});
