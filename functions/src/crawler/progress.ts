// Progress as the analysis shows it: one percent for the whole analysis, made of bands, one per phase, in
// the order the phases run. A phase only moves within its band, and the stored percent only goes up, so
// the bar never jumps back when the crawl finds more pages, and never sits at 99 % for a phase not running.
import { type AnalysisStage, STAGE_BANDS } from '@csp/shared/schemas/analysis';

/** The phases a crawl run reports itself (the rest of the stages belong to the analysis run). */
export type CrawlPhase = Extract<AnalysisStage, 'discovering' | 'crawling' | 'rerendering'>;

/** The percent for `fraction` (0–1) of `stage` done. */
export function phaseProgress(stage: AnalysisStage, fraction: number): number {
  const [start, end] = STAGE_BANDS[stage];
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return Math.floor(start + (end - start) * f);
}
