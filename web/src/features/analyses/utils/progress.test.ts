import { stageBands, stagePercent } from '@csp/shared/analyses/progress-bands';
import { describe, expect, it } from 'vitest';
import {
  currentStageIndex,
  currentStageLabel,
  displayProgress,
  isInProgressStatus,
  isPolledStatus,
  monotonicProgress,
  pagesCrawled,
  progressStatusText,
  QUEUED_TEXT,
  queuePositionLabel,
  resetProgressMemory,
  STAGE_LABELS,
  stageIndex,
  VERIFYING_TEXT,
} from './progress';

describe('stageIndex', () => {
  it('advances at 25, 50, 75 and 100 percent', () => {
    expect([0, 24, 25, 49, 50, 74, 75, 99, 100].map(stageIndex)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4]);
    expect(STAGE_LABELS[stageIndex(100)]).toBe('Complete');
    expect(STAGE_LABELS[stageIndex(10)]).toBe('Discovering URLs');
  });

  it('treats a missing value as 0', () => {
    expect(stageIndex(Number.NaN)).toBe(0);
  });
});

describe('current stage', () => {
  const running = (stage: Parameters<typeof currentStageLabel>[0]['stage'], progress = 10) => ({
    status: 'running',
    progress,
    stage,
  });

  it('shows the stage the crawler reports, whatever the percent', () => {
    expect(currentStageLabel(running('discovering', 90))).toBe('Discovering URLs');
    expect(currentStageLabel(running('crawling', 70))).toBe('Crawling Website');
    expect(currentStageLabel(running('rerendering'))).toBe('Analyzing Resources');
    expect(currentStageLabel(running('generating'))).toBe('Generating CSP');
    expect(currentStageLabel(running('verifying'))).toBe('Generating CSP');
  });

  it('starts no stage while queued', () => {
    expect(currentStageIndex({ status: 'pending', progress: 0, stage: 'queued' })).toBe(-1);
    expect(currentStageLabel({ status: 'pending', progress: 0, stage: 'queued' })).toBeNull();
  });

  it('uses the percent thresholds without a stage, and Complete once completed', () => {
    expect(currentStageLabel(running(undefined, 55))).toBe('Analyzing Resources');
    expect(currentStageLabel(running(null, 80))).toBe('Generating CSP');
    expect(currentStageLabel({ status: 'completed', progress: 97, stage: null })).toBe('Complete');
  });

  it('says queued and verifying instead of the running text', () => {
    expect(progressStatusText({ status: 'pending', stage: 'queued' })).toBe(
      'Queued: waiting for one of your other analyses to finish (2 run at once)',
    );
    expect(QUEUED_TEXT).toContain('(2 run at once)');
    expect(progressStatusText({ status: 'running', stage: 'verifying' })).toBe(VERIFYING_TEXT);
    expect(progressStatusText({ status: 'running', stage: 'crawling' })).toBe(
      'Actively crawling and analyzing resources...',
    );
    expect(progressStatusText({ status: 'pending' })).toBe('Initializing analysis engine...');
  });

  it('gives a waiting analysis its place in the queue, and nothing once it crawls', () => {
    expect(queuePositionLabel({ status: 'pending', queuePosition: 3 })).toBe('Queued — position 3');
    expect(queuePositionLabel({ status: 'running', queuePosition: 3 })).toBeNull();
    expect(queuePositionLabel({ status: 'pending', queuePosition: null })).toBeNull();
    expect(progressStatusText({ status: 'pending', stage: 'queued', queuePosition: 3 })).toBe(
      'Queued — position 3: 2 of yours start first (2 run at once)',
    );
    expect(progressStatusText({ status: 'pending', stage: 'queued', queuePosition: 1 })).toBe(
      'Queued — position 1: yours starts next (2 run at once)',
    );
    // Behind others, no stage has started; alone and not turned away by the crawler yet, it is about to.
    expect(currentStageIndex({ status: 'pending', progress: 0, queuePosition: 2 })).toBe(-1);
    expect(currentStageIndex({ status: 'pending', progress: 0, queuePosition: 1 })).toBe(0);
    expect(progressStatusText({ status: 'pending', queuePosition: 1 })).toBe(
      'Initializing analysis engine...',
    );
  });

  it('counts the pages crawled back from the percent the crawler wrote for them', () => {
    // The crawl's band depends on the crawl delay (a paced crawl is more of the run): the screen reads it
    // back with the analysis's own delay.
    for (const crawlDelay of [0, 1000, 5000]) {
      for (const total of [1, 6, 40, 60]) {
        const bands = stageBands(total, { crawlDelayMs: crawlDelay });
        for (let done = 0; done <= total; done++) {
          const percent = stagePercent(bands, 'crawling', done / total);
          const source = {
            status: 'running',
            progress: percent,
            stage: 'crawling' as const,
            totalPages: total,
            crawlDelay,
          };
          expect(pagesCrawled(source, percent), `${done} of ${total}, ${crawlDelay} ms`).toEqual({
            done,
            total,
          });
        }
      }
    }
    const idle = { status: 'running', crawlDelay: 1000 };
    expect(pagesCrawled({ ...idle, progress: 2, stage: 'crawling', totalPages: 0 }, 2)).toBeNull();
    expect(pagesCrawled({ ...idle, progress: 85, stage: 'rerendering', totalPages: 9 }, 85)).toBeNull();
  });
});

describe('statuses', () => {
  it('polls pending and running only', () => {
    expect(['pending', 'running', 'completed', 'failed'].filter(isPolledStatus)).toEqual([
      'pending',
      'running',
    ]);
  });

  it('counts the domain screen’s in-progress statuses', () => {
    expect(
      ['pending', 'in_progress', 'processing', 'running', 'completed', 'failed'].filter(isInProgressStatus),
    ).toEqual(['pending', 'in_progress', 'processing', 'running']);
  });

  it('shows 100 % for a completed analysis and clamps the rest', () => {
    expect(displayProgress({ status: 'completed', progress: 97 })).toBe(100);
    expect(displayProgress({ status: 'running', progress: 140 })).toBe(100);
    expect(displayProgress({ status: 'running', progress: 33.4 })).toBe(33);
  });

  it('never shows a lower percent for the same analysis', () => {
    resetProgressMemory();
    expect(monotonicProgress({ id: 'a', status: 'running', progress: 40 })).toBe(40);
    expect(monotonicProgress({ id: 'a', status: 'running', progress: 12 })).toBe(40);
    expect(monotonicProgress({ id: 'b', status: 'running', progress: 12 })).toBe(12);
    expect(monotonicProgress({ id: 'a', status: 'running', progress: 55 })).toBe(55);
  });
});
