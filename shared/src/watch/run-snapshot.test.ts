import { describe, expect, it } from 'vitest';
import { type PageWatch, runSnapshotOf, UNREAD_DIGEST } from './run-snapshot';
import { runSnapshotSchema, WATCH_LIMITS } from './snapshot';

const SITE = 'https://shop.example';
const input = (pages: PageWatch[]) => ({
  analysisId: 'a1',
  completedAt: '2026-11-26T00:00:00.000Z',
  siteOrigins: [SITE],
  policy: { 'default-src': ["'self'"] },
  pages,
});

describe('runSnapshotOf', () => {
  it('merges scripts over pages, fills digests read on another page, and names the party', () => {
    const snapshot = runSnapshotOf(
      input([
        {
          page: `${SITE}/`,
          headers: { 'content-security-policy': "default-src 'self'" },
          scripts: [
            { kind: 'external', url: `${SITE}/app.js`, digest: 'sha384-app', initiator: null },
            { kind: 'external', url: 'https://tags.example/t.js', digest: 'sha384-tag', initiator: null },
            {
              kind: 'external',
              url: 'https://pixel.example/p.js#x',
              digest: 'sha384-pix',
              initiator: 'https://tags.example/t.js',
            },
            { kind: 'inline', url: null, digest: 'sha384-inl', initiator: null },
            { kind: 'worker', url: `${SITE}/w.js`, digest: null, initiator: null },
          ],
        },
        {
          page: `${SITE}/b`,
          headers: {},
          // From the memory cache: no body read on this page.
          scripts: [{ kind: 'external', url: `${SITE}/app.js`, digest: null, initiator: null }],
        },
      ]),
    );
    expect(runSnapshotSchema.parse(snapshot)).toEqual(snapshot);
    const byKey = new Map(snapshot.scripts.map((s) => [s.key, s]));
    expect(byKey.get(`${SITE}/app.js`)).toMatchObject({
      digest: 'sha384-app',
      party: 'first',
      pages: [`${SITE}/`, `${SITE}/b`],
      pageCount: 2,
    });
    expect(byKey.get('https://tags.example/t.js')).toMatchObject({ party: 'third', initiator: null });
    // The fragment is not part of the identity; loaded by a third party's script: fourth party.
    expect(byKey.get('https://pixel.example/p.js')).toMatchObject({
      party: 'fourth',
      initiator: 'https://tags.example/t.js',
    });
    expect(byKey.get('inline:sha384-inl')).toMatchObject({ kind: 'inline', url: null, party: 'first' });
    expect(byKey.get(`${SITE}/w.js`)).toMatchObject({ kind: 'worker', digest: UNREAD_DIGEST });
    expect(snapshot.headers).toEqual([
      { page: `${SITE}/`, headers: { 'content-security-policy': "default-src 'self'" } },
      { page: `${SITE}/b`, headers: {} },
    ]);
  });

  it('a script loaded by a first-party script stays third party', () => {
    const snapshot = runSnapshotOf(
      input([
        {
          page: `${SITE}/`,
          headers: {},
          scripts: [
            {
              kind: 'external',
              url: 'https://cdn.example/lib.js',
              digest: 'sha384-l',
              initiator: `${SITE}/app.js`,
            },
          ],
        },
      ]),
    );
    expect(snapshot.scripts[0]?.party).toBe('third');
  });

  it('bounds a hostile crawl: 10,000 scripts, endless URLs and pages come out within WATCH_LIMITS', () => {
    const long = 'x'.repeat(3_000);
    // 600 pages; the first 20 run 500 scripts each (10,000 distinct), every page runs one common script.
    const pages: PageWatch[] = Array.from({ length: 600 }, (_, p) => ({
      page: `${SITE}/${p}/${long}`,
      headers: { 'x-frame-options': 'DENY' },
      scripts: [
        ...Array.from({ length: p < 20 ? 500 : 0 }, (_, i) => ({
          kind: 'external' as const,
          url: `https://t${p * 500 + i}.example/${long}.js`,
          digest: `sha384-${i}`,
          initiator: `https://i.example/${long}`,
        })),
        { kind: 'external' as const, url: `${SITE}/everywhere.js`, digest: 'sha384-e', initiator: null },
      ],
    }));
    const snapshot = runSnapshotOf(input(pages));
    expect(runSnapshotSchema.safeParse(snapshot).success).toBe(true);
    expect(snapshot.scripts.length).toBe(WATCH_LIMITS.scripts);
    expect(snapshot.headers.length).toBe(WATCH_LIMITS.pages);
    for (const s of snapshot.scripts) {
      expect(s.pages.length).toBeLessThanOrEqual(WATCH_LIMITS.pagesPerScript);
      expect(s.url?.length).toBeLessThanOrEqual(WATCH_LIMITS.urlChars);
    }
    // The scripts kept are the most widely seen: the one on every page is there.
    expect(snapshot.scripts.find((s) => s.key === `${SITE}/everywhere.js`)?.pageCount).toBe(600);
  });
});
