import { describe, expect, it } from 'vitest';
import { ANALYSIS_STAGES } from '../schemas/analysis';
import {
  crawledPageLoads,
  PAGE_LOAD_SHARE_MS,
  rerenderLoads,
  stageBands,
  stagePercent,
  VERIFY_SAMPLE_PAGES,
} from './progress-bands';

/** A crawl not paced by a delay: every page load weighs the same. */
const UNPACED = { crawlDelayMs: 0 };

const WORK_STAGES = ['discovering', 'crawling', 'rerendering', 'generating', 'verifying'] as const;

describe('stage bands', () => {
  it('follow each other without a gap, from 0 to 99, for any number of pages', () => {
    for (const pages of [0, 1, 6, 10, 37, 500]) {
      for (const rerender of [true, false]) {
        const bands = stageBands(pages, { rerender, crawlDelayMs: 1000 });
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
    const bands = stageBands(6, UNPACED);
    // 6 crawled, 6 loaded again (fewer than the minimum sample), half a load generating, 6 verified.
    const loads = 6 + 6 + 0.5 + 6;
    expect(bands.crawling[1] - bands.crawling[0]).toBeCloseTo((97 * 6) / loads, 6);
    expect(bands.verifying[1] - bands.verifying[0]).toBeCloseTo((97 * 6) / loads, 6);
    expect(bands.crawling[1]).toBeLessThan(40);
    // Without the stability check, the crawl and the verification share the run.
    expect(stageBands(6, { rerender: false, ...UNPACED }).crawling[1]).toBeCloseTo(2 + (97 * 6) / 12.5, 6);
    // A big crawl is most of the run: the re-render and verification samples are capped.
    expect(rerenderLoads(500)).toBe(50);
    expect(rerenderLoads(200)).toBe(40);
    expect(rerenderLoads(30)).toBe(10);
    const big = stageBands(500, UNPACED);
    expect(big.crawling[1] - big.crawling[0]).toBeGreaterThan(75);
    expect(big.verifying[1] - big.verifying[0]).toBeCloseTo((97 * VERIFY_SAMPLE_PAGES) / 560.5, 6);
  });

  it('moves the percent with every page load of a run, never backwards, at 99 % when the last page is verified', () => {
    // A run of equal page loads: the percent after each is close to the share of loads done.
    for (const pages of [3, 6, 20]) {
      const bands = stageBands(pages, UNPACED);
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

  it('weighs a crawled page by the crawl delay when that paces the crawl longer than a load', () => {
    // 1 s between requests to the site (the default): a crawled page is 2.5 loads, the stability check's
    // and the verification's pages (fetched before, loaded in parallel) one each.
    expect(crawledPageLoads(1000)).toBe(1000 / PAGE_LOAD_SHARE_MS);
    expect(crawledPageLoads(0)).toBe(1);
    expect(crawledPageLoads(PAGE_LOAD_SHARE_MS / 2)).toBe(1);
    const paced = stageBands(6, { crawlDelayMs: 1000 });
    const loads = 6 * 2.5 + 6 + 0.5 + 6;
    expect(paced.crawling[1] - paced.crawling[0]).toBeCloseTo((97 * 15) / loads, 6);
    expect(paced.verifying[1] - paced.verifying[0]).toBeCloseTo((97 * 6) / loads, 6);
    // The default is the analyses' default delay; a longer delay makes the crawl more of the run.
    expect(stageBands(6)).toEqual(paced);
    expect(stageBands(6, { crawlDelayMs: 5000 }).crawling[1]).toBeGreaterThan(paced.crawling[1]);
  });

  it('keeps a fraction within its band', () => {
    const bands = stageBands(10);
    expect(stagePercent(bands, 'crawling', -1)).toBe(2);
    expect(stagePercent(bands, 'crawling', 2)).toBe(Math.floor(bands.crawling[1]));
    expect(stagePercent(bands, 'verifying', Number.NaN)).toBe(Math.floor(bands.verifying[0]));
  });
});
