import { describe, expect, it } from 'vitest';
import {
  type AuthorizationRule,
  addFieldScripts,
  applyRule,
  authorize,
  type InventoryEntry,
  reconcileInventory,
  reportedScriptUrls,
  withoutRule,
} from './inventory';
import type { WatchedScript } from './snapshot';

const s = (url: string, digest: string, extra: Partial<WatchedScript> = {}): WatchedScript => ({
  key: url,
  kind: 'external',
  url,
  digest,
  party: 'first',
  initiator: null,
  pages: ['https://shop.test/'],
  pageCount: 1,
  ...extra,
});
const run = (completedAt: string, ...scripts: WatchedScript[]) => ({ completedAt, scripts });
const owner = { userId: 'u1', at: '2026-11-02', justification: 'Our checkout bundle' };
const byKey = (entries: InventoryEntry[]) => new Map(entries.map((e) => [e.key, e]));

const APP = 'https://shop.test/app.js';
const TAG = 'https://tags.vendor.test/tag.js';

describe('reconcileInventory', () => {
  it('puts new scripts pending, keeps an authorized script authorized while its content holds', () => {
    const first = reconcileInventory(
      [],
      run('2026-11-01', s(APP, 'sha384-A'), s(TAG, 'sha384-T', { party: 'third' })),
      [],
    );
    expect(first.events).toEqual([
      { type: 'new-pending', key: APP },
      { type: 'new-pending', key: TAG },
    ]);
    const reviewed = authorize(first.entries, new Set([APP]), owner);
    const second = reconcileInventory(
      reviewed,
      run('2026-11-08', s(APP, 'sha384-A'), s(TAG, 'sha384-T')),
      [],
    );
    expect(second.events).toEqual([]);
    const entries = byKey(second.entries);
    expect(entries.get(APP)).toMatchObject({
      state: 'authorized',
      firstSeen: '2026-11-01',
      lastSeen: '2026-11-08',
      authorization: { by: 'u1', justification: 'Our checkout bundle', digest: 'sha384-A' },
    });
    expect(entries.get(TAG)!.state).toBe('pending');
  });

  it('makes an authorized script pending again when its content changes, and remembers both digests', () => {
    const start = reconcileInventory([], run('2026-11-01', s(APP, 'sha384-A')), []);
    const reviewed = authorize(start.entries, new Set([APP]), owner);
    const next = reconcileInventory(reviewed, run('2026-11-08', s(APP, 'sha384-B')), []);
    expect(next.events).toEqual([
      { type: 'content-changed', key: APP, before: 'sha384-A', after: 'sha384-B', state: 'pending' },
    ]);
    const entry = next.entries[0]!;
    expect(entry.state).toBe('pending');
    expect(entry.authorization?.digest).toBe('sha384-A'); // the history says what was authorized
    expect(entry.digests.map((d) => d.digest)).toEqual(['sha384-A', 'sha384-B']);
  });

  it("keeps each content's SHA-256 in the history (field digests of an earlier version are told apart)", () => {
    const first = reconcileInventory([], run('2026-11-01', s(APP, 'sha384-A', { sha256: 'sha256-a' })), []);
    // A run that did not read the body keeps what an earlier one read of the same content.
    const again = reconcileInventory(first.entries, run('2026-11-04', s(APP, 'sha384-A')), []);
    const next = reconcileInventory(
      again.entries,
      run('2026-11-08', s(APP, 'sha384-B', { sha256: 'sha256-b' })),
      [],
    );
    expect(next.entries[0]!.digests).toEqual([
      { digest: 'sha384-A', sha256: 'sha256-a', firstSeen: '2026-11-01', lastSeen: '2026-11-04' },
      { digest: 'sha384-B', sha256: 'sha256-b', firstSeen: '2026-11-08', lastSeen: '2026-11-08' },
    ]);
  });

  it('lets a URL-pattern rule authorize new versions, and content changes only when it says any content', () => {
    const versions: AuthorizationRule = {
      id: 'r1',
      pattern: 'https://shop.test/bundle.*.js',
      anyContent: false,
      justification: 'Versioned build output',
      by: 'u1',
      at: '2026-11-01',
    };
    const v2 = 'https://shop.test/bundle.2b.js';
    const first = reconcileInventory([], run('2026-11-01', s(v2, 'sha384-2')), [versions]);
    expect(first.events).toEqual([{ type: 'new-authorized', key: v2, ruleId: 'r1' }]);
    expect(first.entries[0]!.authorization).toMatchObject({
      ruleId: 'r1',
      digest: 'sha384-2',
      anyContent: false,
    });
    // Same URL, other bytes: a versioned URL must not change; pending.
    expect(
      reconcileInventory(first.entries, run('2026-11-08', s(v2, 'sha384-X')), [versions]).entries[0]!.state,
    ).toBe('pending');
    // A rule for any content keeps it authorized, and the change is still told.
    const any = { ...versions, id: 'r2', anyContent: true };
    const changed = reconcileInventory(first.entries, run('2026-11-08', s(v2, 'sha384-X')), [any]);
    expect(changed.entries[0]!.state).toBe('authorized');
    expect(changed.events[0]).toMatchObject({ type: 'content-changed', state: 'authorized' });
  });

  it('removes what a run no longer saw, keeps its history, and tells when it returns', () => {
    const first = reconcileInventory([], run('2026-11-01', s(APP, 'sha384-A')), []);
    const reviewed = authorize(first.entries, new Set([APP]), owner);
    const gone = reconcileInventory(reviewed, run('2026-11-08'), []);
    expect(gone.events).toEqual([{ type: 'removed', key: APP }]);
    expect(gone.entries[0]).toMatchObject({
      state: 'removed',
      authorization: { justification: 'Our checkout bundle' },
    });
    expect(reconcileInventory(gone.entries, run('2026-11-15'), []).events).toEqual([]);
    const back = reconcileInventory(gone.entries, run('2026-11-22', s(APP, 'sha384-A')), []);
    expect(back.events).toEqual([{ type: 'returned', key: APP, state: 'authorized' }]);
  });

  it('never authorizes a removed script in bulk', () => {
    const gone = reconcileInventory(reconcileInventory([], run('1', s(APP, 'a')), []).entries, run('2'), []);
    expect(authorize(gone.entries, new Set([APP]), owner)[0]!.state).toBe('removed');
  });
});

describe('addFieldScripts', () => {
  it('lists scripts only reports show, pending and marked so, until a crawl sees them', () => {
    const { entries, events } = addFieldScripts(
      [],
      [
        'https://shop.test/login.js#x',
        'https://px.other.test/p.js',
        'javascript:alert(1)',
        'not a url',
        'https://shop.test/login.js',
      ],
      '2026-11-03',
      new Set(['https://shop.test']),
    );
    expect(events).toEqual([
      { type: 'field-only', key: 'https://shop.test/login.js' },
      { type: 'field-only', key: 'https://px.other.test/p.js' },
    ]);
    expect(entries.map((e) => [e.key, e.party, e.seenBy, e.state, e.digest])).toEqual([
      ['https://shop.test/login.js', 'first', 'field', 'pending', null],
      ['https://px.other.test/p.js', 'third', 'field', 'pending', null],
    ]);
    // Not the crawl's to remove; and the crawl's first digest is not a "change".
    expect(reconcileInventory(entries, run('2026-11-08'), []).events).toEqual([]);
    const seen = reconcileInventory(
      entries,
      run('2026-11-08', s('https://shop.test/login.js', 'sha384-L')),
      [],
    );
    expect(seen.events).toEqual([]);
    expect(byKey(seen.entries).get('https://shop.test/login.js')).toMatchObject({
      seenBy: 'crawl',
      digest: 'sha384-L',
      state: 'pending',
      firstSeen: '2026-11-03',
    });
  });
});

describe('rules added and deleted', () => {
  const rule: AuthorizationRule = {
    id: 'r9',
    pattern: 'https://tags.vendor.test/*',
    anyContent: true,
    justification: 'Vendor tag, contract 42',
    by: 'u1',
    at: '2026-11-03',
  };

  it('authorizes the pending scripts a new rule matches, and nothing else', () => {
    const { entries } = reconcileInventory([], run('2026-11-01', s(APP, 'sha384-A'), s(TAG, 'sha384-T')), []);
    const applied = byKey(applyRule(entries, rule));
    expect(applied.get(TAG)).toMatchObject({
      state: 'authorized',
      authorization: { ruleId: 'r9', digest: 'sha384-T', anyContent: true },
    });
    expect(applied.get(APP)!.state).toBe('pending');
  });

  it('keeps what a deleted rule authorized for its current content only', () => {
    const { entries } = reconcileInventory([], run('2026-11-01', s(TAG, 'sha384-T')), [rule]);
    const kept = withoutRule(entries, 'r9');
    expect(kept[0]).toMatchObject({ state: 'authorized', authorization: { anyContent: false } });
    const next = reconcileInventory(kept, run('2026-11-08', s(TAG, 'sha384-U')), []);
    expect(next.entries[0]!.state).toBe('pending');
  });

  it('authorizes for any content when the reviewer says so', () => {
    const { entries } = reconcileInventory([], run('2026-11-01', s(TAG, 'sha384-T')), []);
    const any = authorize(entries, new Set([TAG]), { ...owner, anyContent: true });
    const next = reconcileInventory(any, run('2026-11-08', s(TAG, 'sha384-U')), []);
    expect(next.entries[0]!.state).toBe('authorized');
    expect(next.events[0]).toMatchObject({ type: 'content-changed', state: 'authorized' });
  });
});

describe('reportedScriptUrls', () => {
  it('takes the URLs script directives blocked, once each, and nothing else', () => {
    const r = (blockedUri: string, violatedDirective: string, effectiveDirective?: string) => ({
      blockedUri,
      violatedDirective,
      effectiveDirective,
    });
    expect(
      reportedScriptUrls([
        r('https://evil.test/skim.js', 'script-src-elem'),
        r('https://evil.test/skim.js', 'script-src https://shop.test'),
        r('https://w.test/worker.js', 'default-src', 'worker-src'),
        r('inline', 'script-src-elem'),
        r('eval', 'script-src'),
        r('https://img.test/a.png', 'img-src'),
        r('data:text/javascript,1', 'script-src-elem'),
      ]),
    ).toEqual(['https://evil.test/skim.js', 'https://w.test/worker.js']);
  });
});
