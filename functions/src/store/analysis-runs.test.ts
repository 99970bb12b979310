// The analysis lease: one crawler run at a time, takeover after a lapsed lease, stale runs failed.
import { randomBytes } from 'node:crypto';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createAnalysis, getAnalysis } from './analyses';
import {
  claimAnalysis,
  completeAnalysis,
  failAnalysis,
  failStale,
  STALE_AFTER_LEASE_MS,
  updateProgress,
} from './analysis-runs';
import { createDb, type Db } from './db';
import { ensureTable } from './table';

let db: Db;
beforeAll(async () => {
  db = createDb({ table: `a-${randomBytes(4).toString('hex')}`, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
});

// A domain of its own each: a domain has one analysis waiting or running at a time.
const newAnalysis = () =>
  createAnalysis(db, {
    userId: 'u1',
    domainId: `d-${randomBytes(4).toString('hex')}`,
    url: 'https://a.test/',
    crawlRequest: crawlRequestSchema.parse({ url: 'https://a.test/' }),
  });

describe('analysis lease', () => {
  it('lets one run hold an analysis; a duplicate delivery is refused while the lease lives', async () => {
    const a = await newAnalysis();
    const first = await claimAnalysis(db, a.id, 'run-1', 60_000);
    expect(first).toMatchObject({ status: 'running', runId: 'run-1', runs: 1 });
    expect(first?.startedAt).toBeTruthy();
    expect(await claimAnalysis(db, a.id, 'run-2', 60_000)).toBeNull();
    // A continuation of the same run may claim again.
    expect(await claimAnalysis(db, a.id, 'run-1', 60_000)).toMatchObject({ runId: 'run-1', runs: 2 });
  });

  it('lets a new run take over a lapsed lease; the old run then loses its writes', async () => {
    const a = await newAnalysis();
    await claimAnalysis(db, a.id, 'old', 1_000);
    const later = Date.now() + 5_000;
    expect(await claimAnalysis(db, a.id, 'new', 60_000, later)).toMatchObject({ runId: 'new' });
    expect(await updateProgress(db, a.id, 'old', { progress: 50, currentPage: 'x', totalPages: 2 })).toBe(
      false,
    );
    expect(await updateProgress(db, a.id, 'new', { progress: 50, currentPage: 'x', totalPages: 2 })).toBe(
      true,
    );
    const done = await completeAnalysis(db, a.id, 'new', {
      cspRules: { 'default-src': ["'none'"] },
      resourceStats: { totalResources: 1, uniqueDomains: 1, securityIssues: 0 },
      errors: [],
      totalPages: 2,
      verification: { pagesChecked: 2, violations: 0, samples: [] },
    });
    expect(done).toBe(true);
    const stored = await getAnalysis(db, a.id);
    expect(stored).toMatchObject({
      status: 'completed',
      progress: 100,
      cspRules: { 'default-src': ["'none'"] },
    });
    expect(await claimAnalysis(db, a.id, 'late', 60_000, Date.now() + 10 * 60_000)).toBeNull();
    expect(await failAnalysis(db, a.id, null, ['too late'])).toBe(false);
  });

  it('fails a running analysis whose lease lapsed long ago, and leaves live ones alone', async () => {
    const stale = await newAnalysis();
    const live = await newAnalysis();
    await claimAnalysis(db, stale.id, 'r', 1_000);
    await claimAnalysis(db, live.id, 'r', 60 * 60_000);
    const now = Date.now() + STALE_AFTER_LEASE_MS + 5_000;
    const [s, l] = await failStale(
      db,
      [(await getAnalysis(db, stale.id))!, (await getAnalysis(db, live.id))!],
      now,
    );
    expect(s).toMatchObject({ status: 'failed' });
    expect(s?.errors[0]).toMatch(/stopped responding/);
    expect(l).toMatchObject({ status: 'running' });
  });
});
