// Packing a run for its one DynamoDB item: a snapshot and changes at WATCH_LIMITS, of content gzip cannot
// shrink, still fit (cut, and said so), and bytes that are not a packed record (or a gzip bomb) are refused.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { compareRuns } from '@csp/shared/watch/compare';
import { type RunSnapshot, WATCH_LIMITS } from '@csp/shared/watch/snapshot';
import { describe, expect, it } from 'vitest';
import {
  MAX_PACKED_CHANGES_BYTES,
  MAX_PACKED_SNAPSHOT_BYTES,
  packChanges,
  packSnapshot,
  unpackChanges,
  unpackSnapshot,
} from './snapshot-pack';

const noise = (n: number) => randomBytes(n).toString('base64url');
const pages = Array.from({ length: WATCH_LIMITS.pages }, () => `https://shop.test/${noise(60)}`);
const hostile = (id: string): RunSnapshot => ({
  analysisId: id,
  completedAt: '2026-11-26T00:00:00.000Z',
  scripts: Array.from({ length: WATCH_LIMITS.scripts }, (_, i) => {
    const url = `https://t${i}.test/${noise(300)}.js`;
    return {
      key: url,
      kind: 'external',
      url,
      digest: `sha384-${noise(48)}`,
      party: 'third',
      initiator: null,
      pages: pages.slice(i % 400, (i % 400) + WATCH_LIMITS.pagesPerScript),
      pageCount: WATCH_LIMITS.pagesPerScript + (i % 7),
    };
  }),
  policy: { 'default-src': ["'self'"] },
  headers: pages.map((page) => ({
    page,
    headers: { 'content-security-policy': `default-src 'self' ${noise(2000)}` },
  })),
});

describe('snapshot packing', () => {
  it('a snapshot at WATCH_LIMITS of incompressible content fits, the most widely seen scripts kept', () => {
    const big = hostile('a');
    const data = packSnapshot(big);
    expect(data.length).toBeLessThanOrEqual(MAX_PACKED_SNAPSHOT_BYTES);
    const back = unpackSnapshot(data);
    expect(back?.analysisId).toBe('a');
    expect(back?.scripts.length).toBeGreaterThan(0);
    expect(back?.headers.length).toBeGreaterThan(0);
    const kept = new Set(back?.scripts.map((s) => s.pageCount));
    const widest = Math.max(...big.scripts.map((s) => s.pageCount));
    expect(kept.has(widest)).toBe(true);
    // A small snapshot goes through whole.
    const small = { ...big, scripts: big.scripts.slice(0, 10), headers: big.headers.slice(0, 10) };
    expect(unpackSnapshot(packSnapshot(small))).toEqual(small);
  });

  it('changes too large for the item are cut and marked truncated; small ones kept whole', () => {
    const changes = compareRuns(hostile('a'), hostile('b'));
    expect(changes.scripts.added.length).toBe(WATCH_LIMITS.scripts);
    const data = packChanges({ changes, drift: null });
    expect(data.length).toBeLessThanOrEqual(MAX_PACKED_CHANGES_BYTES);
    const back = unpackChanges(data);
    expect(back?.truncated).toBe(true);
    expect(back?.changes?.scripts.added.length).toBeLessThan(WATCH_LIMITS.scripts);
    const same = hostile('c');
    const none = compareRuns(same, same);
    expect(unpackChanges(packChanges({ changes: none, drift: null }))).toEqual({
      changes: none,
      drift: null,
      truncated: false,
    });
  });

  it('refuses bytes that are not a packed record, and a gzip bomb', () => {
    expect(unpackSnapshot(Buffer.from('not gzip'))).toBeNull();
    expect(unpackSnapshot(gzipSync(JSON.stringify({ analysisId: 1 })))).toBeNull();
    expect(unpackChanges(gzipSync(JSON.stringify({ changes: 'x' })))).toBeNull();
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(unpackSnapshot(bomb)).toBeNull();
  });
});
