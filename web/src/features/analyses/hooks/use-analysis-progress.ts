// What the progress card and the domain screen's progress box show of an analysis under way: the percent
// (never lower than shown before in this session), the stage the crawler is in, the status line and, while
// crawling, how many of the pages found were crawled.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { formatCount } from '@/lib/format';
import {
  currentStageIndex,
  monotonicProgress,
  pagesCrawled,
  progressStatusText,
  queuePositionLabel,
  STAGE_LABELS,
} from '../utils/progress';

export interface AnalysisProgressView {
  percent: number;
  /** Index in STAGE_LABELS; -1 while queued. */
  stage: number;
  stageLabel: string | null;
  statusText: string;
  queued: boolean;
  /** "12 of 37 pages" while crawling. */
  pagesText: string | null;
  /** No figure to show yet: the bar is indeterminate. */
  indeterminate: boolean;
}

export function useAnalysisProgress(analysis: Analysis): AnalysisProgressView {
  const percent = monotonicProgress(analysis);
  const stage = currentStageIndex(analysis, percent);
  const pages = pagesCrawled(analysis, percent);
  const queued = analysis.stage === 'queued' || queuePositionLabel(analysis) !== null;
  return {
    percent,
    stage,
    stageLabel: STAGE_LABELS[stage] ?? null,
    statusText: progressStatusText(analysis),
    queued,
    pagesText: pages ? `${formatCount(pages.done)} of ${formatCount(pages.total)} pages` : null,
    indeterminate: percent === 0 && (analysis.status === 'pending' || queued),
  };
}
