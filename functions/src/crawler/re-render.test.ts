import type { Observation, PageArtifact } from '@csp/shared/csp/artifact';
import { describe, expect, it } from 'vitest';
import { initialCrawlState } from './crawl';
import { rerenderSample } from './re-render';
import { crawlJobSchema } from './state';

const inline = (shape: string): Observation => ({
  page: 'https://e.com/',
  type: 'inline',
  directive: 'script-src-elem',
  hash: `sha256-${shape}`,
  shape,
});

const page = (
  i: number,
  observations: Observation[] = [],
  over: Partial<PageArtifact> = {},
): PageArtifact => ({
  url: `https://e.com/p${i}`,
  finalUrl: `https://e.com/p${i}`,
  status: 200,
  observations,
  ...over,
});

function stateWith(pages: PageArtifact[]) {
  const state = initialCrawlState(crawlJobSchema.parse({ url: 'https://e.com/', maxPages: 500 }));
  state.pages = pages;
  return state;
}

describe('rerenderSample', () => {
  it('takes every page of a small crawl, leaving out failed and incomplete ones', () => {
    const state = stateWith([
      page(0),
      page(1, [], { status: 404 }),
      page(2, [], { incomplete: 'acting on the page timed out' }),
      page(3),
    ]);
    expect(rerenderSample(state)).toEqual(['https://e.com/p0', 'https://e.com/p3']);
  });

  it('takes 10 pages or a fifth, spread over the crawl, whichever is more', () => {
    expect(rerenderSample(stateWith(Array.from({ length: 30 }, (_, i) => page(i))))).toHaveLength(10);
    const sample = rerenderSample(stateWith(Array.from({ length: 100 }, (_, i) => page(i))));
    expect(sample).toHaveLength(20);
    expect(sample[0]).toBe('https://e.com/p0');
    expect(sample[1]).toBe('https://e.com/p5');
  });

  it('spreads at most 50 pages over a big crawl, and still adds every page with a shape they lack', () => {
    const pages = Array.from({ length: 500 }, (_, i) => page(i, [inline('template')]));
    pages[3] = page(3, [inline('template'), inline('one-off')]);
    const sample = rerenderSample(stateWith(pages));
    expect(sample).toHaveLength(51);
    expect(sample[1]).toBe('https://e.com/p10');
    expect(sample[50]).toBe('https://e.com/p3');
  });

  it('adds the pages with inline code of a shape the sample lacks, most new shapes first', () => {
    const pages = Array.from({ length: 30 }, (_, i) => page(i, [inline('common')]));
    // p1 and p2 are not in the spread sample (every third page is): p2 brings two new shapes, p1 one of
    // them only; p4 brings one of its own.
    pages[1] = page(1, [inline('common'), inline('token-a')]);
    pages[2] = page(2, [inline('token-a'), inline('token-b')]);
    pages[4] = page(4, [inline('token-c')]);
    const sample = rerenderSample(stateWith(pages));
    expect(sample.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `https://e.com/p${i * 3}`));
    expect(sample.slice(10)).toEqual(['https://e.com/p2', 'https://e.com/p4']);
  });
});
