import { describe, expect, it } from 'vitest';
import { acceptedValues, carriesOriginVerify, refreshingOriginVerify, rotatedSecret } from './origin-verify';

const A = 'a'.repeat(48);
const B = 'b'.repeat(48);
const C = 'c'.repeat(48);
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('origin-verify', () => {
  it('reads the current and previous values, or one plain value', () => {
    expect(acceptedValues(JSON.stringify({ current: B, previous: A }))).toEqual([B, A]);
    expect(acceptedValues(JSON.stringify({ current: A, previous: '' }))).toEqual([A]);
    expect(acceptedValues(A)).toEqual([A]);
    expect(acceptedValues(undefined)).toEqual([]);
    expect(acceptedValues(JSON.stringify({ current: 'short' }))).toEqual([]);
  });

  it('accepts a header carrying either value, nothing else', () => {
    expect(carriesOriginVerify(A, [B, A])).toBe(true);
    expect(carriesOriginVerify(B, [B, A])).toBe(true);
    expect(carriesOriginVerify(C, [B, A])).toBe(false);
    expect(carriesOriginVerify(`${A}x`, [A])).toBe(false);
    expect(carriesOriginVerify(undefined, [A])).toBe(false);
    expect(carriesOriginVerify('', [])).toBe(false);
  });

  it('rotates without downtime: the old value passes until CloudFront sends the new one', async () => {
    let stored = JSON.stringify({ current: A, previous: '' });
    let clock = 0;
    let loads = 0;
    const verify = await refreshingOriginVerify(
      async () => {
        loads += 1;
        return stored;
      },
      { refreshMs: 1000, now: () => clock },
    );
    let cloudFrontSends = A;
    const passes = () => carriesOriginVerify(cloudFrontSends, verify.accepted());
    expect(passes()).toBe(true);

    // Rotation step 1: the secret gets a new current, the old one becomes previous.
    stored = JSON.stringify({ current: B, previous: A });
    clock = 999;
    expect(passes()).toBe(true);
    expect(loads).toBe(1); // not stale yet
    clock = 1000;
    expect(passes()).toBe(true); // answered from the cache while it refreshes
    await flush();
    expect(loads).toBe(2);
    expect(verify.accepted()).toEqual([B, A]);
    // Step 2: the deploy makes CloudFront send the new value.
    cloudFrontSends = B;
    expect(passes()).toBe(true);
    // Anything else is still refused.
    cloudFrontSends = C;
    expect(passes()).toBe(false);
  });

  it('keeps the last good values when a refresh fails, and tries again 30 s later', async () => {
    let clock = 0;
    let fail = false;
    let loads = 0;
    const errors: unknown[] = [];
    const verify = await refreshingOriginVerify(
      async () => {
        loads += 1;
        if (fail) throw new Error('throttled');
        return A;
      },
      { refreshMs: 60_000, now: () => clock, onError: (e) => errors.push(e) },
    );
    fail = true;
    clock = 60_000;
    verify.accepted();
    await flush();
    expect(errors).toHaveLength(1);
    expect(verify.accepted()).toEqual([A]);
    clock = 60_000 + 29_000;
    verify.accepted();
    await flush();
    expect(loads).toBe(2);
    clock = 60_000 + 30_000;
    verify.accepted();
    await flush();
    expect(loads).toBe(3);
  });

  it('rotates the stored secret: the fresh value current, the one sent now previous', () => {
    expect(JSON.parse(rotatedSecret(JSON.stringify({ current: A, previous: '' }), B))).toEqual({
      current: B,
      previous: A,
    });
    expect(JSON.parse(rotatedSecret(JSON.stringify({ current: B, previous: A }), C))).toEqual({
      current: C,
      previous: B,
    });
    expect(JSON.parse(rotatedSecret(A, B))).toEqual({ current: B, previous: A });
  });
});
