import { describe, expect, it } from 'vitest';
import { ANALYSIS_STAGES, displayProgress, isInProgressStatus, isPolledStatus, stageIndex } from './progress';

describe('stageIndex', () => {
  it('advances at 25, 50, 75 and 100 percent', () => {
    expect([0, 24, 25, 49, 50, 74, 75, 99, 100].map(stageIndex)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4]);
    expect(ANALYSIS_STAGES[stageIndex(100)]).toBe('Complete');
    expect(ANALYSIS_STAGES[stageIndex(10)]).toBe('Discovering URLs');
  });

  it('treats a missing value as 0', () => {
    expect(stageIndex(Number.NaN)).toBe(0);
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
});
