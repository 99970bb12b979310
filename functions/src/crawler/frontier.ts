// The crawl's to-do list: breadth-first, same-origin only, never the same page twice, never more than
// maxPages. Backed by the JSON state (items and seen keys) so it survives a continuation.
import type { CrawlState, FrontierItem } from './state';
import { isSameOrigin, looksLikePage, normalizeUrl } from './url-normalize';

export class Frontier {
  private readonly seen: Set<string>;

  constructor(
    private readonly state: CrawlState,
    private readonly maxPages: number,
  ) {
    this.seen = new Set(state.seen);
  }

  get size(): number {
    return this.state.frontier.length;
  }

  /** Pages visited or queued: what the crawl plans to do in total (for progress). */
  get planned(): number {
    return Math.min(this.maxPages, this.state.pagesDone + this.state.frontier.length);
  }

  get full(): boolean {
    return this.state.pagesDone + this.state.frontier.length >= this.maxPages;
  }

  hasSeen(url: string): boolean {
    const key = normalizeUrl(url);
    return key !== null && this.seen.has(key);
  }

  /** Queues a page if it is new, on the analysed origin, looks like a document and fits the budget. */
  add(url: string, via: FrontierItem['via'], depth: number): boolean {
    const key = normalizeUrl(url);
    if (key === null || this.seen.has(key) || !looksLikePage(key)) return false;
    if (!isSameOrigin(key, this.state.origin)) {
      if (via !== 'link') this.state.offSite += 1;
      return false;
    }
    if (this.full) return false;
    this.seen.add(key);
    this.state.frontier.push({ url: url.split('#')[0]!, key, depth, via });
    return true;
  }

  /** Marks a page as visited without queueing it (a redirect's target). Drops it from the queue if there. */
  markVisited(url: string): void {
    const key = normalizeUrl(url);
    if (key === null) return;
    this.seen.add(key);
    const index = this.state.frontier.findIndex((item) => item.key === key);
    if (index >= 0) this.state.frontier.splice(index, 1);
  }

  /**
   * Takes the first queued page whose host may be requested now (crawlDelay), if any. A scan and a splice,
   * not a queue's O(1) take: the frontier never holds more than maxPages (at most 500) entries, since
   * `add` refuses past `full`, so however many URLs sitemaps list, a take costs at most 500 steps.
   */
  take(ready: (host: string) => boolean): FrontierItem | undefined {
    const index = this.state.frontier.findIndex((item) => ready(new URL(item.key).host));
    if (index < 0) return undefined;
    return this.state.frontier.splice(index, 1)[0];
  }

  /** Drops every queued page on a host (the SSRF guard refused it: each would fail the same way). */
  dropHost(host: string): number {
    const before = this.state.frontier.length;
    this.state.frontier = this.state.frontier.filter((item) => new URL(item.key).host !== host);
    return before - this.state.frontier.length;
  }

  /** Writes the seen set back into the state (call before saving it). */
  sync(): void {
    this.state.seen = [...this.seen];
  }
}
