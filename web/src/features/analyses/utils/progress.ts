// Analysis states and crawl stages (spec section 4, section 9): the stage the crawler reports when the
// analysis has one, the spec's 25/50/75/100 percent thresholds for older analyses without it.
import { stageBands } from '@csp/shared/analyses/progress-bands';
import type { AnalysisStage } from '@csp/shared/schemas/analysis';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';

/** Polled every 2 s while pending or running (spec section 4). */
export const ANALYSIS_POLL_MS = 2000;

/** How many analyses of one user the crawler runs at once; the others wait ('queued'). */
export const CONCURRENT_ANALYSES = CRAWL_LIMITS.runningAnalysesPerUser;

/** Statuses the analysis and generator screens poll and show as in progress. */
export function isPolledStatus(status: string): boolean {
  return status === 'pending' || status === 'running';
}

/**
 * The domain screen counts pending, in_progress and processing as in progress (spec section 4); our API
 * says running for a crawl under way, which is the same state.
 */
export function isInProgressStatus(status: string): boolean {
  return status === 'pending' || status === 'running' || status === 'in_progress' || status === 'processing';
}

/** The five stage labels of the progress card (spec, standalone generator). */
export const STAGE_LABELS = [
  'Discovering URLs',
  'Crawling Website',
  'Analyzing Resources',
  'Generating CSP',
  'Complete',
] as const;
export type StageLabel = (typeof STAGE_LABELS)[number];

/** The stage advances at 25, 50, 75 and 100 percent (analyses that do not report their stage). */
export const STAGE_THRESHOLDS = [25, 50, 75, 100] as const;

/** Index in STAGE_LABELS of the stage a progress percentage is in (0 below 25 %, 4 at 100 %). */
export function stageIndex(progress: number): number {
  const value = Number.isFinite(progress) ? progress : 0;
  return STAGE_THRESHOLDS.filter((threshold) => value >= threshold).length;
}

/** Where each reported stage shows among the five labels; 'queued' has not started any (-1). */
const STAGE_POSITION: Record<AnalysisStage, number> = {
  queued: -1,
  discovering: 0,
  crawling: 1,
  rerendering: 2,
  generating: 3,
  verifying: 3,
};

interface ProgressSource {
  status: string;
  progress: number;
  stage?: AnalysisStage | null | undefined;
  queuePosition?: number | null | undefined;
}

/**
 * The index in STAGE_LABELS the analysis is at: 4 when completed, the reported stage when there is one,
 * else the percent thresholds. -1 while queued (no stage started yet).
 */
export function currentStageIndex(analysis: ProgressSource, percent = analysis.progress): number {
  if (analysis.status === 'completed') return STAGE_LABELS.length - 1;
  // Waiting behind the user's other analyses: no stage has started.
  if (queuePositionLabel(analysis)) return -1;
  if (analysis.stage) return STAGE_POSITION[analysis.stage];
  return stageIndex(percent);
}

/** The label of the stage the analysis is at (null while queued). */
export function currentStageLabel(analysis: ProgressSource, percent = analysis.progress): StageLabel | null {
  return STAGE_LABELS[currentStageIndex(analysis, percent)] ?? null;
}

/** The percentage an analysis reports: completed ones are 100 % whatever was stored. */
export function displayProgress(analysis: { status: string; progress: number }): number {
  if (analysis.status === 'completed') return 100;
  return Math.min(100, Math.max(0, Math.round(analysis.progress || 0)));
}

/** The highest percent shown so far for each analysis, for this page session. */
const highestShown = new Map<string, number>();

/**
 * The percent to show: never lower than what was shown before for the same analysis in this session, so
 * a poll that answers a lower figure (a continuation starting over, a queued re-run) does not move the
 * bar backwards.
 */
export function monotonicProgress(analysis: { id: string; status: string; progress: number }): number {
  const percent = displayProgress(analysis);
  const shown = Math.max(percent, highestShown.get(analysis.id) ?? 0);
  highestShown.set(analysis.id, shown);
  return shown;
}

/** For tests: forget what was shown. */
export function resetProgressMemory() {
  highestShown.clear();
}

export const QUEUED_TEXT = `Queued: waiting for one of your other analyses to finish (${CONCURRENT_ANALYSES} run at once)`;
export const VERIFYING_TEXT = 'Verifying the policy on your pages…';

/**
 * 'Queued — position 3' while the analysis waits behind others: the crawler found no free slot for it
 * (stage 'queued'), or older analyses of the user's wait before it. A lone new analysis (position 1, not
 * queued yet) is about to start and says so instead. Null otherwise.
 */
export function queuePositionLabel(analysis: {
  status: string;
  stage?: AnalysisStage | null;
  queuePosition?: number | null;
}): string | null {
  const n = analysis.queuePosition;
  if (analysis.status !== 'pending' || !n) return null;
  if (n === 1 && analysis.stage !== 'queued') return null;
  return `Queued — position ${n}`;
}

/** The line under the title while an analysis is under way. */
export function progressStatusText(analysis: {
  status: string;
  stage?: AnalysisStage | null;
  queuePosition?: number | null;
}): string {
  const position = queuePositionLabel(analysis);
  if (position) {
    const ahead = (analysis.queuePosition ?? 1) - 1;
    const first =
      ahead === 0 ? 'yours starts next' : `${ahead} of yours start${ahead === 1 ? 's' : ''} first`;
    return `${position}: ${first} (${CONCURRENT_ANALYSES} run at once)`;
  }
  if (analysis.stage === 'queued') return QUEUED_TEXT;
  if (analysis.stage === 'verifying') return VERIFYING_TEXT;
  return analysis.status === 'pending'
    ? 'Initializing analysis engine...'
    : 'Actively crawling and analyzing resources...';
}

/**
 * How many of the pages found were crawled, while crawling: from where the percent is in the crawling band
 * (as wide as the crawler made it for the pages found, shared/src/analyses/progress-bands.ts). Null in any
 * other stage or before any page was found.
 */
export function pagesCrawled(
  analysis: ProgressSource & { totalPages: number; crawlDelay: number },
  percent: number,
): { done: number; total: number } | null {
  if (analysis.stage !== 'crawling' || analysis.totalPages <= 0) return null;
  const [start, end] = stageBands(analysis.totalPages, { crawlDelayMs: analysis.crawlDelay }).crawling;
  const fraction = Math.min(1, Math.max(0, (percent - start) / (end - start)));
  return {
    // The crawler floors its percent: the pages done are the fewest that reach it.
    done: Math.min(analysis.totalPages, Math.max(0, Math.ceil(fraction * analysis.totalPages - 1e-9))),
    total: analysis.totalPages,
  };
}
