import { describe, expect, it } from 'vitest';
import { compareRuns } from '../watch/compare';
import { policyDrift } from '../watch/drift';
import { syntheticRuns } from '../watch/snapshot-factory';
import { alertsFromRun, pendingReviewAlert } from './from-run';

const policy = { 'default-src': ["'self'"], 'script-src': ["'self'", 'https://vendor1.example.net'] };

describe('alerts from a compared run', () => {
  it('raises one alert per kind and run, naming three scripts and counting the rest', () => {
    const [before, after] = syntheticRuns({ pages: 40, scripts: 60, policy, churn: 0.2 });
    const changes = compareRuns(before, after);
    expect(changes.scripts.added.length).toBeGreaterThan(3);
    const alerts = alertsFromRun({ analysisId: 'a2', changes, drift: null });
    expect(alerts.map((a) => [a.kind, a.cause])).toEqual([
      ['script-added', 'run:a2'],
      ['script-changed', 'run:a2'],
      ['header-changed', 'run:a2'],
    ]);
    const added = alerts[0]!.summary;
    expect(added).toMatch(new RegExp(`^${changes.scripts.added.length} new scripts: https://`));
    expect(added).toContain(`and ${changes.scripts.added.length - 3} more`);
    expect(alerts[2]!.summary).toMatch(/^Permissions-Policy changed on 8 pages$/);
  });

  it('raises nothing for an unchanged run whose served policy matches', () => {
    const [before] = syntheticRuns({ pages: 5, scripts: 5, policy });
    const drift = policyDrift(before.headers, { rules: policy, reportOnly: false });
    expect(drift.state).toBe('matches');
    expect(alertsFromRun({ analysisId: 'a', changes: compareRuns(before, before), drift })).toEqual([]);
  });

  it('groups the same drift across runs by what is served, and tells none served from a difference', () => {
    const [before] = syntheticRuns({ pages: 5, scripts: 5, policy });
    const saved = { ...policy, 'img-src': ["'self'"] };
    const drift = policyDrift(before.headers, { rules: saved, reportOnly: false });
    const [a] = alertsFromRun({ analysisId: 'r1', changes: null, drift });
    const [b] = alertsFromRun({ analysisId: 'r2', changes: null, drift });
    expect(a!.cause).toBe(b!.cause);
    expect(a!.summary).toBe(
      "The Content-Security-Policy served on 5 pages differs from the saved configuration (img-src -'self')",
    );
    const none = policyDrift(
      before.headers.map((p) => ({ page: p.page, headers: {} })),
      { rules: saved, reportOnly: false },
    );
    const [c] = alertsFromRun({ analysisId: 'r3', changes: null, drift: none });
    expect(c!.summary).toBe(
      'The site serves no Content-Security-Policy header, while the saved configuration is active',
    );
    expect(c!.cause).not.toBe(a!.cause);
  });
});

describe('scripts pending review too long', () => {
  const entry = (key: string, firstSeen: string, state: 'pending' | 'authorized' = 'pending') => ({
    key,
    kind: 'external' as const,
    url: key,
    party: 'third' as const,
    initiator: null,
    digest: 'sha384-b',
    // Pending since its current content appeared, not since the script was first seen.
    digests: [
      { digest: 'sha384-a', firstSeen: '2026-01-01T00:00:00.000Z', lastSeen: '2026-11-01T00:00:00.000Z' },
      { digest: 'sha384-b', firstSeen, lastSeen: '2026-11-20T00:00:00.000Z' },
    ],
    firstSeen: '2026-01-01T00:00:00.000Z',
    state,
  });
  const now = Date.parse('2026-11-20T00:00:00.000Z');

  it('names the scripts waiting longer than N days since their content changed, and groups the same set', () => {
    const entries = [
      entry('https://a.example/a.js', '2026-11-01T00:00:00.000Z'),
      entry('https://b.example/b.js', '2026-11-18T00:00:00.000Z'), // 2 days: not yet
      entry('https://c.example/c.js', '2026-11-01T00:00:00.000Z', 'authorized'),
    ];
    const alert = pendingReviewAlert(entries, 7, now)!;
    expect(alert.summary).toBe('1 script pending review for more than 7 days: https://a.example/a.js');
    expect(pendingReviewAlert(entries, 7, now + 86_400_000)!.cause).toBe(alert.cause);
    expect(pendingReviewAlert(entries, 1, now)!.cause).not.toBe(alert.cause);
    expect(pendingReviewAlert(entries, 30, now)).toBeNull();
  });
});
