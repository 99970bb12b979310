// The sitemap files discovery still has to read, first in first out. Indexes can list tens of thousands of
// sitemaps (a few files of 50,000 entries each), so taking from the front is O(1) (a read position, not
// Array.shift, which moves every entry and made a long queue quadratic), and a URL already queued is not
// queued again (the first entry decides whether a missing file is reported).
export interface QueuedSitemap {
  url: string;
  /** A file the user or the site named (uploaded, robots.txt, an index): its absence is worth a line. */
  reportMissing: boolean;
}

export class SitemapQueue {
  private entries: QueuedSitemap[] = [];
  private head = 0;
  private readonly queued = new Set<string>();

  /** Queues a sitemap unless it was queued before (even if already taken); true when queued. */
  add(url: string, reportMissing: boolean): boolean {
    if (this.queued.has(url)) return false;
    this.queued.add(url);
    this.entries.push({ url, reportMissing });
    return true;
  }

  get size(): number {
    return this.entries.length - this.head;
  }

  /** The oldest entry, or undefined when empty. */
  take(): QueuedSitemap | undefined {
    if (this.head >= this.entries.length) return undefined;
    const entry = this.entries[this.head++];
    // Taken entries are dropped in one go once they are half the array: amortised O(1), memory bounded.
    if (this.head * 2 >= this.entries.length && this.head >= 1024) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    return entry;
  }

  /** The entries not taken, oldest first. */
  *remaining(): IterableIterator<QueuedSitemap> {
    for (let i = this.head; i < this.entries.length; i++) yield this.entries[i]!;
  }
}
