// Token buckets in memory, per key: a burst up to `capacity`, then `perSecond`. Each process (Lambda
// container) limits on its own, so the limit a client meets is this one times the processes serving it;
// the deployed stack bounds those with the ingest function's reserved concurrency.
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  /** The key taken last, so the newest in the Map's order (often the same domain again). */
  private newest: string | undefined;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes `n` tokens if there are; false means "too many". */
  take(key: string, n = 1, now = Date.now()): boolean {
    let b = this.buckets.get(key);
    if (b) {
      b.tokens = Math.min(this.capacity, b.tokens + ((now - b.at) / 1000) * this.perSecond);
      b.at = now;
      // Re-inserting keeps the Map in least-recently-used order for eviction (the newest key already is).
      if (key !== this.newest) {
        this.buckets.delete(key);
        this.buckets.set(key, b);
      }
    } else {
      b = { tokens: this.capacity, at: now };
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
      this.buckets.set(key, b);
    }
    this.newest = key;
    if (b.tokens < n) return false;
    b.tokens -= n;
    return true;
  }

  /** Seconds until `n` tokens are there again (for Retry-After). */
  retryAfter(key: string, n = 1): number {
    const b = this.buckets.get(key);
    if (!b) return 1;
    return Math.max(1, Math.ceil((n - b.tokens) / this.perSecond));
  }
}
