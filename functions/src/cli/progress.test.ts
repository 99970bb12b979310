import { describe, expect, it } from 'vitest';
import { Progress } from './progress';

const recorder = (tty: boolean) => {
  const written: string[] = [];
  return { written, output: { write: (t: string) => void written.push(t), tty, columns: 80 } };
};

describe('Progress', () => {
  it('redraws one line on a terminal, cut to its width, and ends it with a line of its own', () => {
    const { written, output } = recorder(true);
    const p = new Progress('crawl', output);
    p.update(0, 'crawling', 'http://a.test/');
    p.update(50, 'crawling', `http://a.test/${'x'.repeat(100)}`);
    p.done('done');
    expect(written[0]).toBe(`\r\x1b[2Kcrawl [${'-'.repeat(24)}]   0% crawling http://a.test/`);
    expect(
      written[1]!.startsWith(`\r\x1b[2Kcrawl [${'#'.repeat(12)}${'-'.repeat(12)}]  50% crawling http`),
    ).toBe(true);
    expect(written[1]!.length - '\r\x1b[2K'.length).toBe(79);
    expect(written.slice(2)).toEqual(['\r\x1b[2K', 'crawl: done\n']);
  });

  it('prints a plain line per stage and per tenth elsewhere (a CI log)', () => {
    const { written, output } = recorder(false);
    const p = new Progress('analyze', output);
    for (const percent of [0, 3, 9, 10, 14, 35]) p.update(percent, 'crawling');
    p.update(36, 'verifying');
    p.done('2 pages');
    expect(written).toEqual([
      'analyze: 0% crawling\n',
      'analyze: 10% crawling\n',
      'analyze: 35% crawling\n',
      'analyze: 36% verifying\n',
      'analyze: 2 pages\n',
    ]);
  });
});
