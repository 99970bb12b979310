import { describe, expect, it } from 'vitest';
import type { InventoryEntry } from './inventory';
import { selectScripts } from './inventory-list';

const entry = (key: string, over: Partial<InventoryEntry> = {}): InventoryEntry => ({
  key,
  kind: 'external',
  url: key,
  party: 'first',
  initiator: null,
  digest: 'sha384-x',
  digests: [],
  pages: [],
  pageCount: 1,
  firstSeen: '2026-11-01T00:00:00.000Z',
  lastSeen: '2026-11-01T00:00:00.000Z',
  state: 'pending',
  authorization: null,
  seenBy: 'crawl',
  ...over,
});

describe('selectScripts', () => {
  it('orders by state, then party, then key by code units (the same in every runtime and locale)', () => {
    const keys = [
      'https://a.example/b.js',
      'https://a.example/Z.js',
      'https://a.example/_x.js',
      'https://a.example/a.js',
    ];
    const entries = [
      entry('https://a.example/removed.js', { state: 'removed' }),
      ...keys.map((k) => entry(k)),
      entry('https://cdn.example/lib.js', { party: 'third' }),
    ];
    const { scripts } = selectScripts(entries, null, {});
    // A locale's collation puts a.js before Z.js and _x.js first; code units put upper case before '_' and
    // '_' before lower case.
    expect(scripts.map((s) => s.key)).toEqual([
      'https://a.example/Z.js',
      'https://a.example/_x.js',
      'https://a.example/a.js',
      'https://a.example/b.js',
      'https://cdn.example/lib.js',
      'https://a.example/removed.js',
    ]);
  });
});
