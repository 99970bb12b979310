// Analysis states and crawl stages (spec section 4, section 9 and issue 3 point 6).

/** Polled every 2 s while pending or running (spec section 4). */
export const ANALYSIS_POLL_MS = 2000;

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

export const ANALYSIS_STAGES = [
  'Discovering URLs',
  'Crawling Website',
  'Analyzing Resources',
  'Generating CSP',
  'Complete',
] as const;

/** The stage advances at 25, 50, 75 and 100 percent. */
export const STAGE_THRESHOLDS = [25, 50, 75, 100] as const;

/** Index in ANALYSIS_STAGES of the stage a progress percentage is in (0 below 25 %, 4 at 100 %). */
export function stageIndex(progress: number): number {
  const value = Number.isFinite(progress) ? progress : 0;
  return STAGE_THRESHOLDS.filter((threshold) => value >= threshold).length;
}

/** The percentage shown for an analysis: completed ones are 100 % whatever was stored. */
export function displayProgress(analysis: { status: string; progress: number }): number {
  if (analysis.status === 'completed') return 100;
  return Math.min(100, Math.max(0, Math.round(analysis.progress || 0)));
}

/** The line under the progress bar while an analysis is under way. */
export function progressStatusText(status: string): string {
  return status === 'pending'
    ? 'Initializing analysis engine...'
    : 'Actively crawling and analyzing resources...';
}
