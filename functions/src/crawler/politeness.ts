// crawlDelay per host: requests to one host (pages, robots.txt, sitemaps) start at least `delayMs` apart,
// whichever tab or discovery step makes them. Times are epoch milliseconds, so the schedule survives a
// continuation in another invocation (it is part of the crawl state).

export class HostScheduler {
  /** A Map: hosts come from the crawled site's links, and a host may be named `constructor` or `__proto__`. */
  private readonly nextAt: Map<string, number>;

  constructor(
    private readonly delayMs: number,
    nextAt: Record<string, number> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.nextAt = new Map(Object.entries(nextAt));
  }

  /** Milliseconds until `host` may be requested again (0 when it may now). */
  readyIn(host: string): number {
    return Math.max(0, (this.nextAt.get(host) ?? 0) - this.now());
  }

  /** Takes the host's slot now: the next request to it waits `delayMs`. */
  reserve(host: string): void {
    if (this.delayMs > 0) this.nextAt.set(host, this.now() + this.delayMs);
  }

  /** Waits for the host's slot, then takes it. */
  async wait(host: string): Promise<void> {
    for (let wait = this.readyIn(host); wait > 0; wait = this.readyIn(host)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    this.reserve(host);
  }

  snapshot(): Record<string, number> {
    const now = this.now();
    // Slots in the past say nothing any more; keep the state small.
    // Object.fromEntries defines each key, so a `__proto__` host stays a key of the snapshot.
    return Object.fromEntries([...this.nextAt].filter(([, at]) => at > now));
  }
}
