import { describe, expect, it } from 'vitest';
import { queuedRecheckSeconds } from './queued-wait';

describe('queuedRecheckSeconds', () => {
  it('doubles with each look up to 8 times the base, jittered by a quarter either way', () => {
    expect([1, 2, 3, 4, 5, 9].map((look) => queuedRecheckSeconds(30, look, 0.5))).toEqual([
      30, 60, 120, 240, 240, 240,
    ]);
    expect(queuedRecheckSeconds(30, 1, 0)).toBe(23);
    expect(queuedRecheckSeconds(30, 4, 1)).toBe(300);
  });

  it('never waits less than a second, nor at the SQS cap (900 s) with the default base', () => {
    expect(queuedRecheckSeconds(0, 1, 0)).toBe(1);
    expect(queuedRecheckSeconds(30, 100, 1)).toBeLessThanOrEqual(900);
  });
});
