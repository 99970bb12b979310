// Run slots on DynamoDB Local: at most 2 analyses of one user at once, race-free across concurrent callers,
// lapsed leases free their slot, holders renew, users do not share.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from './db';
import { acquireRunSlot, MAX_RUNNING_ANALYSES_PER_USER, releaseRunSlot } from './run-slots';
import { ensureTable } from './table';

let db: Db;
beforeAll(async () => {
  db = createDb({ table: `s-${randomBytes(4).toString('hex')}`, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
});

const user = () => `u-${randomBytes(4).toString('hex')}`;
const later = () => Date.now() + 60_000;

describe('run slots', () => {
  it('gives exactly 2 of 10 concurrent callers of one user a slot', async () => {
    expect(MAX_RUNNING_ANALYSES_PER_USER).toBe(2);
    const userId = user();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        acquireRunSlot(db, { userId, analysisId: `a${i}`, leaseUntil: later() }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(2);
  });

  it('frees a slot on release, renews a holder without a second slot, ignores a release by a non-holder', async () => {
    const userId = user();
    expect(await acquireRunSlot(db, { userId, analysisId: 'a', leaseUntil: later() })).toBe(true);
    expect(await acquireRunSlot(db, { userId, analysisId: 'b', leaseUntil: later() })).toBe(true);
    expect(await acquireRunSlot(db, { userId, analysisId: 'c', leaseUntil: later() })).toBe(false);
    // A holder renews (a continuation of its crawl): still two holders, c still waits.
    expect(await acquireRunSlot(db, { userId, analysisId: 'a', leaseUntil: later() + 1000 })).toBe(true);
    expect(await acquireRunSlot(db, { userId, analysisId: 'c', leaseUntil: later() })).toBe(false);
    await releaseRunSlot(db, { userId, analysisId: 'c' });
    expect(await acquireRunSlot(db, { userId, analysisId: 'c', leaseUntil: later() })).toBe(false);
    await releaseRunSlot(db, { userId, analysisId: 'b' });
    await releaseRunSlot(db, { userId, analysisId: 'b' });
    expect(await acquireRunSlot(db, { userId, analysisId: 'c', leaseUntil: later() })).toBe(true);
  });

  it('frees the slot of a lapsed lease (a crashed run)', async () => {
    const userId = user();
    const now = Date.now();
    await acquireRunSlot(db, { userId, analysisId: 'a', leaseUntil: now + 1_000, now });
    await acquireRunSlot(db, { userId, analysisId: 'b', leaseUntil: now + 60_000, now });
    expect(await acquireRunSlot(db, { userId, analysisId: 'c', leaseUntil: now + 60_000, now })).toBe(false);
    expect(
      await acquireRunSlot(db, { userId, analysisId: 'c', leaseUntil: now + 60_000, now: now + 2_000 }),
    ).toBe(true);
  });

  it('keeps users apart', async () => {
    const one = user();
    const two = user();
    await acquireRunSlot(db, { userId: one, analysisId: 'a', leaseUntil: later() });
    await acquireRunSlot(db, { userId: one, analysisId: 'b', leaseUntil: later() });
    expect(await acquireRunSlot(db, { userId: two, analysisId: 'c', leaseUntil: later() })).toBe(true);
  });
});
