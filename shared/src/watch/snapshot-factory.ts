// Synthetic watch snapshots for benchmarks and tests: `pages` pages, `scripts` scripts spread over them (a
// share of them third and fourth party), every page with the usual security headers, and a second run that
// changes a share of it — script content, scripts added and removed, a header dropped on some pages.
import type { CspRules } from '../csp/policy';
import type { RunSnapshot, WatchedScript } from './snapshot';

export interface SyntheticRunsOptions {
  pages: number;
  scripts: number;
  policy: CspRules;
  /** Share of scripts and pages the second run changes (0–1). */
  churn?: number;
}

export function syntheticRuns({
  pages,
  scripts,
  policy,
  churn = 0.05,
}: SyntheticRunsOptions): [RunSnapshot, RunSnapshot] {
  const pageUrls = Array.from({ length: pages }, (_, i) => `https://shop.example.com/p/${i}`);
  const script = (i: number, version: number): WatchedScript => {
    const party = i % 10 === 0 ? 'fourth' : i % 3 === 0 ? 'third' : 'first';
    const host = party === 'first' ? 'shop.example.com' : `vendor${i % 40}.example.net`;
    const url = `https://${host}/js/${i}.js`;
    const on = pageUrls.filter((_, p) => (p + i) % 10 === 0);
    return {
      key: url,
      kind: 'external',
      url,
      digest: `sha384-${i.toString(36)}v${version}`,
      party,
      initiator: party === 'fourth' ? `https://vendor${i % 40}.example.net/tag.js` : null,
      pages: on.slice(0, 50),
      pageCount: on.length,
    };
  };
  const headers = (page: string, version: number) => ({
    page,
    headers: {
      'content-security-policy': "default-src 'self'; script-src 'self' https://vendor1.example.net",
      'strict-transport-security': 'max-age=63072000; includeSubDomains',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'permissions-policy': version ? 'camera=(), microphone=()' : 'camera=()',
    },
  });
  const changed = (i: number, n: number) => i < Math.floor(n * churn);
  const first: RunSnapshot = {
    analysisId: 'first',
    completedAt: '2026-11-01T00:00:00.000Z',
    scripts: Array.from({ length: scripts }, (_, i) => script(i, 0)),
    policy,
    headers: pageUrls.map((p) => headers(p, 0)),
  };
  const second: RunSnapshot = {
    analysisId: 'second',
    completedAt: '2026-11-08T00:00:00.000Z',
    scripts: Array.from({ length: scripts }, (_, i) =>
      script(i + (i % 2 && changed(i, scripts) ? scripts : 0), changed(i, scripts) ? 1 : 0),
    ),
    policy,
    headers: pageUrls.map((p, i) => headers(p, changed(i, pages) ? 1 : 0)),
  };
  return [first, second];
}
