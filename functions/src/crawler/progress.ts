// Progress as the analysis shows it: one percent for the whole analysis, made of bands, one per phase, in
// the order the phases run, each as wide as the page loads it makes (shared/src/analyses/progress-bands.ts).
// A phase only moves within its band, and the stored percent only goes up, so the bar never jumps back when
// the crawl finds more pages, and never sits at 99 % for a phase not running.
import type { AnalysisStage } from '@csp/shared/schemas/analysis';

/** The phases a crawl run reports itself (the rest of the stages belong to the analysis run). */
export type CrawlPhase = Extract<AnalysisStage, 'discovering' | 'crawling' | 'rerendering'>;

/**
 * Sends progress reports one at a time, the latest only: a report made while another is being written
 * replaces any still waiting. A slow store then shows where the work is now, not a queue of figures it has
 * passed, and two reports never land out of order (a figure going back on the user's screen).
 * `flushed()` resolves once the last report made so far has been sent; a failed send is dropped (the next
 * report carries the newer figure anyway).
 */
export function latestProgressSender<T>(send: (report: T) => Promise<unknown>) {
  let waiting: { report: T } | null = null;
  let sending: Promise<void> | null = null;
  const drain = async () => {
    while (waiting) {
      const { report } = waiting;
      waiting = null;
      await send(report).catch(() => {});
    }
    sending = null;
  };
  return {
    push(report: T): void {
      waiting = { report };
      sending ??= drain();
    },
    flushed(): Promise<void> {
      return sending ?? Promise.resolve();
    },
  };
}
