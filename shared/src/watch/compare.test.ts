import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare';
import type { RunSnapshot, WatchedScript } from './snapshot';
import { syntheticRuns } from './snapshot-factory';

const script = (key: string, digest: string, extra: Partial<WatchedScript> = {}): WatchedScript => ({
  key,
  kind: 'external',
  url: key,
  digest,
  party: 'first',
  initiator: null,
  pages: ['https://shop.test/'],
  pageCount: 1,
  ...extra,
});

const run = (over: Partial<RunSnapshot>): RunSnapshot => ({
  analysisId: 'a',
  completedAt: '2026-11-01T00:00:00.000Z',
  scripts: [],
  policy: {},
  headers: [],
  ...over,
});

describe('compareRuns', () => {
  it('finds scripts added, changed and removed, and a fourth party as such', () => {
    const before = run({
      scripts: [
        script('https://shop.test/app.js', 'sha384-A'),
        script('https://tags.vendor.test/tag.js', 'sha384-T', { party: 'third' }),
        script('inline:sha384-I', 'sha384-I', { kind: 'inline', url: null }),
      ],
    });
    const after = run({
      scripts: [
        script('https://shop.test/app.js', 'sha384-B'),
        script('https://tags.vendor.test/tag.js', 'sha384-T', { party: 'third' }),
        script('https://px.fourth.test/p.js', 'sha384-P', {
          party: 'fourth',
          initiator: 'https://tags.vendor.test/tag.js',
        }),
      ],
    });
    const { scripts } = compareRuns(before, after);
    expect(scripts.added.map((s) => [s.key, s.party, s.initiator])).toEqual([
      ['https://px.fourth.test/p.js', 'fourth', 'https://tags.vendor.test/tag.js'],
    ]);
    expect(scripts.changed.map((c) => [c.before.digest, c.after.digest])).toEqual([['sha384-A', 'sha384-B']]);
    expect(scripts.removed.map((s) => s.key)).toEqual(['inline:sha384-I']);
  });

  it('reports every policy difference and, apart, the origins per directive', () => {
    const changes = compareRuns(
      run({ policy: { 'script-src': ["'self'", "'sha256-x'"], 'img-src': ["'self'"] } }),
      run({ policy: { 'script-src': ["'self'", "'sha256-y'", 'https://new.test'], 'img-src': ["'self'"] } }),
    );
    expect(changes.policy).toEqual([
      {
        directive: 'script-src',
        change: 'changed',
        added: ["'sha256-y'", 'https://new.test'],
        removed: ["'sha256-x'"],
      },
    ]);
    expect(changes.origins).toEqual([
      { directive: 'script-src', change: 'changed', added: ['https://new.test'], removed: [] },
    ]);
  });

  it('groups a header change by what changed, over the pages both runs crawled', () => {
    const pages = Array.from({ length: 300 }, (_, i) => `https://shop.test/p${i}`);
    const csp = "default-src 'self'";
    const before = run({
      headers: pages.map((page) => ({
        page,
        headers: { 'content-security-policy': csp, 'x-frame-options': 'DENY' },
      })),
    });
    const after = run({
      headers: [
        ...pages.map((page, i) => ({
          page,
          headers:
            i < 299
              ? { 'x-frame-options': 'DENY' }
              : { 'content-security-policy': csp, 'x-frame-options': 'SAMEORIGIN' },
        })),
        { page: 'https://shop.test/new', headers: {} },
      ],
    });
    const { headers } = compareRuns(before, after);
    expect(headers.map((h) => [h.header, h.change, h.before, h.after, h.pages.length])).toEqual([
      ['content-security-policy', 'removed', csp, null, 299],
      ['x-frame-options', 'changed', 'DENY', 'SAMEORIGIN', 1],
    ]);
  });

  it('finds nothing between a run and itself', () => {
    const same = run({
      scripts: [script('https://shop.test/app.js', 'sha384-A')],
      policy: { 'default-src': ["'self'"] },
      headers: [{ page: 'https://shop.test/', headers: { 'referrer-policy': 'no-referrer' } }],
    });
    expect(compareRuns(same, structuredClone(same))).toEqual({
      scripts: { added: [], changed: [], removed: [] },
      origins: [],
      policy: [],
      headers: [],
    });
  });
});

describe('compareRuns on the benchmark runs', () => {
  it('finds exactly the churn the synthetic second run made', () => {
    const [before, after] = syntheticRuns({
      pages: 500,
      scripts: 2000,
      policy: { 'default-src': ["'self'"] },
    });
    const changes = compareRuns(before, after);
    expect(changes.scripts.changed).toHaveLength(50);
    expect(changes.scripts.added).toHaveLength(50);
    expect(changes.scripts.removed).toHaveLength(50);
    expect(changes.headers).toHaveLength(1);
    expect(changes.headers[0]).toMatchObject({ header: 'permissions-policy', change: 'changed' });
    expect(changes.headers[0]!.pages).toHaveLength(25);
  });
});
