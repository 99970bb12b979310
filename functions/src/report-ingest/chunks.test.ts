import type { NormalizedReport } from '@csp/shared/schemas/report';
import { describe, expect, it } from 'vitest';
import { type ChunkedMessage, MAX_CHUNK_CHECKED, MAX_CHUNK_ITEMS, transactionChunks } from './chunks';

const report = (source: string, reportedAt = '2026-11-25T10:30:00.000Z'): NormalizedReport => ({
  documentUri: 'https://shop.example/',
  blockedUri: `https://${source}/x.png`,
  violatedDirective: 'img-src',
  reportedAt,
});

const delivered = (sources: string[], second = 1_000, redelivered = false): ChunkedMessage => ({
  second,
  redelivered,
  message: { receivedAt: '2026-11-25T10:59:00.000Z', reports: sources.map((s) => report(s)) },
});

/** The transaction items a chunk writes: counters, hours, guard seconds. */
function items(chunk: ChunkedMessage[]): number {
  const keys = new Set<string>();
  for (const d of chunk) {
    keys.add(`g${d.second}`);
    keys.add('s2026-11-25T10');
    for (const r of d.message.reports) keys.add(r.blockedUri);
  }
  return keys.size;
}

describe('transactionChunks', () => {
  it('keeps messages together while their counters, hours and guard seconds fit one transaction', () => {
    // Each message: 40 groups of its own, plus the hour and its second (shared by all).
    const list = Array.from({ length: 5 }, (_, m) =>
      delivered(Array.from({ length: 40 }, (_, i) => `m${m}-s${i}.example`)),
    );
    const chunks = transactionChunks(list);
    expect(chunks.map((c) => c.length)).toEqual([2, 2, 1]);
    expect(chunks.flat()).toEqual(list);
    for (const c of chunks) expect(items(c)).toBeLessThanOrEqual(MAX_CHUNK_ITEMS);
  });

  it('counts a group once however many messages name it', () => {
    const list = Array.from({ length: 30 }, (_, m) =>
      delivered(['same.example', 'other.example'], 1_000 + (m % 3)),
    );
    expect(transactionChunks(list)).toEqual([list]);
  });

  it('starts a new chunk after the redelivered messages one expression can check', () => {
    const list = Array.from({ length: MAX_CHUNK_CHECKED * 2 + 1 }, (_, m) =>
      delivered(['same.example'], 1_000, m % 2 === 0),
    );
    const chunks = transactionChunks(list);
    expect(chunks.flat()).toEqual(list);
    for (const c of chunks) {
      expect(c.filter((d) => d.redelivered).length).toBeLessThanOrEqual(MAX_CHUNK_CHECKED);
    }
    expect(chunks.length).toBe(2);
  });

  it('answers no chunk for no message', () => {
    expect(transactionChunks([])).toEqual([]);
  });
});
