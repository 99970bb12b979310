import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('refills at its rate and says when to retry', () => {
    const limiter = new RateLimiter(2, 1);
    expect(limiter.take('a', 1, 0)).toBe(true);
    expect(limiter.take('a', 1, 0)).toBe(true);
    expect(limiter.take('a', 1, 0)).toBe(false);
    expect(limiter.retryAfter('a')).toBe(1);
    expect(limiter.take('a', 1, 1000)).toBe(true);
    expect(limiter.take('a', 2, 1500)).toBe(false);
    expect(limiter.retryAfter('a', 2)).toBe(2);
  });

  it('forgets the least recently used key when full, a key taken twice in a row staying recent', () => {
    const limiter = new RateLimiter(1, 0.001, 2);
    expect(limiter.take('a', 1, 0)).toBe(true);
    expect(limiter.take('b', 1, 0)).toBe(true);
    expect(limiter.take('a', 1, 0)).toBe(false);
    expect(limiter.take('a', 1, 0)).toBe(false);
    // b is the least recently used: a new key pushes it out, and a keeps its empty bucket.
    expect(limiter.take('c', 1, 0)).toBe(true);
    expect(limiter.take('a', 1, 0)).toBe(false);
    // c was used before a: b comes back with a full bucket and pushes out c, which comes back full too.
    expect(limiter.take('b', 1, 0)).toBe(true);
    expect(limiter.take('a', 1, 0)).toBe(false);
    expect(limiter.take('c', 1, 0)).toBe(true);
  });
});
