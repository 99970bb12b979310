// Progress as the analysis shows it: one percent for the whole analysis, made of bands, one per phase, in
// the order the phases run, each as wide as the page loads it makes (shared/src/analyses/progress-bands.ts).
// A phase only moves within its band, and the stored percent only goes up, so the bar never jumps back when
// the crawl finds more pages, and never sits at 99 % for a phase not running.
import type { AnalysisStage } from '@csp/shared/schemas/analysis';

/** The phases a crawl run reports itself (the rest of the stages belong to the analysis run). */
export type CrawlPhase = Extract<AnalysisStage, 'discovering' | 'crawling' | 'rerendering'>;
