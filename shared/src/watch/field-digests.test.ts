import { describe, expect, it } from 'vitest';
import type { FieldReport } from '../schemas/field-report';
import { aggregateFieldReports, crawlDigestsOf, digestVerdict, fieldDigestList } from './field-digests';

const A = `sha256-${'A'.repeat(43)}=`;
const B = `sha256-${'B'.repeat(42)}A=`;
const C = `sha256-${'C'.repeat(42)}A=`;

const hash = (scriptUrl: string, digest: string, reportedAt: string): FieldReport => ({
  kind: 'hash',
  documentUri: 'https://www.example.com/',
  scriptUrl,
  digest,
  reportedAt,
});

describe('field digests', () => {
  it('judges a digest against the crawl: match, unknown, or unverified when no crawl digest is known', () => {
    expect(digestVerdict({ current: A, earlier: [] }, A)).toBe('match');
    expect(digestVerdict({ current: A, earlier: [] }, B)).toBe('unknown');
    expect(digestVerdict({ current: null, earlier: [] }, B)).toBe('unverified');
    expect(digestVerdict(undefined, B)).toBe('unverified');
  });

  it("a digest an earlier crawl computed is 'earlier' (a cached copy from before an update), not unknown", () => {
    expect(digestVerdict({ current: A, earlier: [B] }, B)).toBe('earlier');
    expect(digestVerdict({ current: A, earlier: [B] }, C)).toBe('unknown');
    // The last crawl did not read the body: what an earlier one read still counts.
    expect(digestVerdict({ current: null, earlier: [B] }, B)).toBe('earlier');
    expect(digestVerdict({ current: null, earlier: [B] }, C)).toBe('unverified');
  });

  it("reads the crawls' digests from an inventory entry: the current one, and the history's others", () => {
    const entry = {
      sha256: A,
      digests: [
        { digest: 'sha384-old', sha256: B, firstSeen: 't1', lastSeen: 't1' },
        { digest: 'sha384-unread', firstSeen: 't2', lastSeen: 't2' },
        { digest: 'sha384-now', sha256: A, firstSeen: 't3', lastSeen: 't3' },
      ],
    };
    expect(crawlDigestsOf(entry)).toEqual({ current: A, earlier: [B] });
    expect(crawlDigestsOf(undefined)).toEqual({ current: null, earlier: [] });
  });

  it('counts per script (its URL without fragment, as the inventory keys it) and digest, with first and last seen', () => {
    const { digests, integrity } = aggregateFieldReports([
      hash('https://cdn.example.net/app.js#x', A, '2026-11-24T10:00:02Z'),
      hash('https://cdn.example.net/app.js', A, '2026-11-24T10:00:01Z'),
      hash('https://cdn.example.net/app.js', B, '2026-11-24T10:00:03Z'),
      {
        kind: 'integrity',
        documentUri: 'https://www.example.com/',
        scriptUrl: 'https://cdn.example.net/app.js',
        reportOnly: true,
        reportedAt: '2026-11-24T10:00:04Z',
      },
      {
        kind: 'integrity',
        documentUri: 'https://www.example.com/',
        scriptUrl: 'https://cdn.example.net/app.js',
        reportOnly: false,
        reportedAt: '2026-11-24T10:00:00Z',
      },
      hash('chrome-extension://x/y.js', A, '2026-11-24T10:00:00Z'),
    ]);
    expect(digests).toEqual([
      {
        scriptKey: 'https://cdn.example.net/app.js',
        digest: A,
        count: 2,
        firstSeen: '2026-11-24T10:00:01Z',
        lastSeen: '2026-11-24T10:00:02Z',
      },
      {
        scriptKey: 'https://cdn.example.net/app.js',
        digest: B,
        count: 1,
        firstSeen: '2026-11-24T10:00:03Z',
        lastSeen: '2026-11-24T10:00:03Z',
      },
    ]);
    expect(integrity).toEqual([
      {
        scriptKey: 'https://cdn.example.net/app.js',
        count: 2,
        reportOnly: 1,
        firstSeen: '2026-11-24T10:00:00Z',
        lastSeen: '2026-11-24T10:00:04Z',
      },
    ]);
  });

  it('lists scripts with a digest no crawl saw first, each digest judged', () => {
    const seen = { firstSeen: '2026-11-24T10:00:00Z', lastSeen: '2026-11-24T10:00:00Z' };
    const list = fieldDigestList(
      {
        scripts: [
          { script: { key: 'https://a.example/a.js' }, digests: [{ digest: A, count: 3, ...seen }] },
          {
            script: {
              key: 'https://b.example/b.js',
              integrity: 2,
              integrityReportOnly: 2,
              integrityFirstSeen: seen.firstSeen,
              integrityLastSeen: seen.lastSeen,
            },
            digests: [
              { digest: A, count: 9, ...seen },
              { digest: B, count: 1, ...seen },
            ],
          },
          { script: { key: 'https://c.example/c.js' }, digests: [{ digest: B, count: 1, ...seen }] },
        ],
        otherScriptReports: 4,
      },
      (key) => ({ current: key === 'https://c.example/c.js' ? null : A, earlier: [] }),
    );
    expect(list.otherScriptReports).toBe(4);
    expect(list.scripts.map((s) => [s.key, s.digests.map((d) => d.verdict)])).toEqual([
      ['https://b.example/b.js', ['unknown', 'match']],
      ['https://a.example/a.js', ['match']],
      ['https://c.example/c.js', ['unverified']],
    ]);
    expect(list.scripts[0]?.integrity).toEqual({ count: 2, reportOnly: 2, ...seen });
    expect(list.scripts[1]?.integrity).toBeNull();
  });
});
