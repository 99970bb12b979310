// The header budget: safest trades first (style hashes, then per-page-only script hashes), each listed;
// a policy that cannot fit says so; CloudFront's 1,783 characters.
import { describe, expect, it } from 'vitest';
import type { Observation } from './artifact';
import { artifactOfPages } from './artifact-factory';
import { policyLength } from './budget';
import { generatePolicy } from './generate';

const origin = 'https://site.example';
const hash = (i: number, salt: string) => `sha256-${`${salt}${i}`.padEnd(43, 'Q')}=`;
const site = (pages: Record<string, Observation[]>) => artifactOfPages(origin, pages);
const style = (i: number): Observation => ({
  type: 'inline',
  directive: 'style-src-elem',
  hash: hash(i, 's'),
  page: '',
});
const styleAttr = (i: number): Observation => ({
  type: 'inline',
  directive: 'style-src-attr',
  hash: hash(i, 'a'),
  page: '',
});
const script = (i: number): Observation => ({
  type: 'inline',
  directive: 'script-src-elem',
  hash: hash(i, 'j'),
  page: '',
});

describe('header budget', () => {
  it('fits a page with 100 inline style blocks by collapsing style hashes, and says so', () => {
    const artifact = site({ '/': Array.from({ length: 100 }, (_, i) => style(i)) });
    const unbounded = generatePolicy(artifact, { budget: { limit: 1_000_000 } });
    expect(policyLength(unbounded.rules, 'header')).toBeGreaterThan(4096);
    const { rules, findings, budget } = generatePolicy(artifact);
    expect(budget).toEqual({
      target: 'header',
      limit: 4096,
      length: policyLength(rules, 'header'),
      fits: true,
    });
    expect(rules['style-src']).toEqual(["'unsafe-inline'", "'report-sample'"]);
    const trade = findings.find((f) => f.code === 'budget-trade');
    expect(trade).toMatchObject({ severity: 'low', directive: 'style-src' });
    expect(trade!.description).toMatch(/saves \d+ bytes/);
  });

  it('collapses style attributes first, and stops as soon as it fits', () => {
    const artifact = site({
      '/': [
        ...Array.from({ length: 60 }, (_, i) => styleAttr(i)),
        ...Array.from({ length: 20 }, (_, i) => style(i)),
      ],
    });
    const { rules, findings, budget } = generatePolicy(artifact);
    expect(budget.fits).toBe(true);
    expect(rules['style-src-attr']).toEqual(["'unsafe-inline'", "'report-sample'"]);
    expect(rules['style-src']!.filter((s) => s.startsWith("'sha"))).toHaveLength(20);
    expect(findings.filter((f) => f.code === 'budget-trade').map((f) => f.directive)).toEqual([
      'style-src-attr',
    ]);
  });

  it('then leaves out script hashes seen on one page only, listing them with their page', () => {
    const shared = Array.from({ length: 10 }, (_, i) => script(i));
    const pages: Record<string, Observation[]> = { '/a': shared, '/b': shared };
    for (let p = 0; p < 90; p++) pages[`/p${p}`] = [script(1000 + p)];
    const { rules, findings, budget } = generatePolicy(site(pages));
    expect(budget.fits).toBe(true);
    const hashes = rules['script-src']!.filter((s) => s.startsWith("'sha"));
    expect(hashes).toHaveLength(10);
    const trade = findings.find((f) => f.code === 'budget-trade' && f.directive === 'script-src')!;
    expect(trade.severity).toBe('medium');
    expect(trade.description).toContain(`on ${origin}/p`);
    expect(rules['script-src']).not.toContain("'unsafe-inline'");
  });

  it('caps a CloudFront target at 1,783 characters of the value', () => {
    const artifact = site({ '/': Array.from({ length: 30 }, (_, i) => style(i)) });
    const { budget, rules } = generatePolicy(artifact, { budget: { target: 'cloudfront', limit: 4096 } });
    expect(budget).toMatchObject({ target: 'cloudfront', limit: 1783, fits: true });
    expect(policyLength(rules, 'cloudfront')).toBeLessThanOrEqual(1783);
  });

  it('never returns an over-budget policy silently', () => {
    const origins: Observation[] = Array.from({ length: 200 }, (_, i) => ({
      type: 'url',
      directive: 'img-src',
      url: `https://images-${i}.thirdparty-cdn.example/x.png`,
      page: '',
    }));
    const { budget, findings } = generatePolicy(site({ '/': origins }));
    expect(budget.fits).toBe(false);
    expect(budget.length).toBeGreaterThan(4096);
    expect(findings[0]).toMatchObject({ severity: 'high', code: 'over-budget' });
  });
});
