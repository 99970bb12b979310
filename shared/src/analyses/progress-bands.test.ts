import { describe, expect, it } from 'vitest';
import { ANALYSIS_STAGES } from '../schemas/analysis';
import { rerenderLoads, stageBands, stagePercent, VERIFY_SAMPLE_PAGES } from './progress-bands';

const WORK_STAGES = ['discovering', 'crawling', 'rerendering', 'generating', 'verifying'] as const;

describe('stage bands', () => {
  it('follow each other without a gap, from 0 to 99, for any number of pages', () => {
    for (const pages of [0, 1, 6, 10, 37, 500]) {
      for (const rerender of [true, false]) {
        const bands = stageBands(pages, { rerender });
        expect(Object.keys(bands).sort()).toEqual([...ANALYSIS_STAGES].sort());
        expect(bands.discovering[0]).toBe(0);
        for (let i = 1; i < WORK_STAGES.length; i++) {
          expect(bands[WORK_STAGES[i]!][0]).toBeCloseTo(bands[WORK_STAGES[i - 1]!][1], 9);
        }
        expect(bands.verifying[1]).toBeCloseTo(99, 9);
      }
    }
  });

  it('give each phase its share of the page loads: a six-page crawl is a third of the run, not 80 %', () => {
    const bands = stageBands(6);
    // 6 crawled, 6 loaded again (fewer than the minimum sample), half a load generating, 6 verified.
    const loads = 6 + 6 + 0.5 + 6;
    expect(bands.crawling[1] - bands.crawling[0]).toBeCloseTo((97 * 6) / loads, 6);
    expect(bands.verifying[1] - bands.verifying[0]).toBeCloseTo((97 * 6) / loads, 6);
    expect(bands.crawling[1]).toBeLessThan(40);
    // Without the stability check, the crawl and the verification share the run.
    expect(stageBands(6, { rerender: false }).crawling[1]).toBeCloseTo(2 + (97 * 6) / 12.5, 6);
    // A big crawl is most of the run: the re-render and verification samples are capped.
    expect(rerenderLoads(500)).toBe(50);
    expect(rerenderLoads(200)).toBe(40);
    expect(rerenderLoads(30)).toBe(10);
    const big = stageBands(500);
    expect(big.crawling[1] - big.crawling[0]).toBeGreaterThan(75);
    expect(big.verifying[1] - big.verifying[0]).toBeCloseTo((97 * VERIFY_SAMPLE_PAGES) / 560.5, 6);
  });

  it('moves the percent with every page load of a run, never backwards, at 99 % when the last page is verified', () => {
    // A run of equal page loads: the percent after each is close to the share of loads done.
    for (const pages of [3, 6, 20]) {
      const bands = stageBands(pages);
      const steps: number[] = [];
      const phases: [(typeof WORK_STAGES)[number], number][] = [
        ['crawling', pages],
        ['rerendering', rerenderLoads(pages)],
        ['verifying', Math.min(pages, VERIFY_SAMPLE_PAGES)],
      ];
      for (const [stage, loads] of phases) {
        for (let done = 1; done <= loads; done++) steps.push(stagePercent(bands, stage, done / loads));
      }
      const total = steps.length;
      steps.forEach((percent, i) => {
        expect(percent).toBeGreaterThan(i === 0 ? 2 : steps[i - 1]!);
        expect(Math.abs(percent - 2 - (97 * (i + 1)) / (total + 0.5))).toBeLessThan(6);
      });
      expect(steps.at(-1)).toBe(99);
    }
  });

  it('keeps a fraction within its band', () => {
    const bands = stageBands(10);
    expect(stagePercent(bands, 'crawling', -1)).toBe(2);
    expect(stagePercent(bands, 'crawling', 2)).toBe(Math.floor(bands.crawling[1]));
    expect(stagePercent(bands, 'verifying', Number.NaN)).toBe(Math.floor(bands.verifying[0]));
  });
});
