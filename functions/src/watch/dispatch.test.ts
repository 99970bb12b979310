// The schedule dispatcher on DynamoDB Local with an injected clock: a due schedule starts one analysis
// through the user's start path (marked as the schedule's) and moves on to its next time; a paused domain is
// skipped; a refused start is recorded with its reason; two dispatchers at once start one analysis; and it
// touches only the key prefixes its IAM policy allows.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { FUNCTION_KEY_PREFIXES } from '@csp/shared/store/key-prefixes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../local/server';
import { DOMAIN_BUSY_MESSAGE } from '../store/domain-run-guard';
import { domainKey } from '../store/keys';
import { claimDueTime, getSchedule } from '../store/schedules';
import { registeredClient, startTestServer } from '../testing/api-server';
import { outside, recordingDb, type Touch } from '../testing/key-recorder';
import { dispatchDueSchedules } from './dispatch';

let server: LocalServer;
const touched: Touch[] = [];
beforeAll(async () => {
  // Started analyses stay pending (no crawl), and the server's own timer never fires during the tests.
  server = await startTestServer({
    crawlHandler: () => async () => ({ batchItemFailures: [] }),
    scheduleEveryMs: 3_600_000,
  });
}, 60_000);
afterAll(() => server?.close());

const dispatch = (now: number) =>
  dispatchDueSchedules(
    { ...server.deps, db: recordingDb(server.deps.db, touched).db, logger: server.deps.logger },
    now,
  );

async function scheduledDomain(settings: Record<string, unknown> = {}) {
  const { client } = await registeredClient(server.url);
  const created = await client.post('/api/domains', { name: 'Shop', url: 'http://127.0.0.1:9/' });
  const domain = (await created.json()) as { id: string };
  const saved = await client.put(`/api/domains/${domain.id}/schedule`, {
    frequency: 'daily',
    time: '04:15',
    crawlRequest: { maxPages: 7, crawlDelay: 0, ...settings },
  });
  expect(saved.status).toBe(200);
  const dueAt = Date.parse((await saved.json()).nextRunAt);
  const read = async () => (await client.get(`/api/domains/${domain.id}/schedule`)).json();
  const analyses = async () => (await client.get(`/api/domains/${domain.id}/analyses`)).json();
  return { client, domain, dueAt, read, analyses };
}

const DAY = 86_400_000;

describe('dispatchDueSchedules', () => {
  it('starts a due schedule once, with its settings, marked as the schedule’s, and moves it to its next run', async () => {
    const s = await scheduledDomain();
    // Not yet due: nothing happens.
    await dispatch(s.dueAt - 1);
    expect(await s.analyses()).toEqual([]);

    const result = await dispatch(s.dueAt + 1_000);
    expect(result.started).toBeGreaterThanOrEqual(1);
    const [analysis, ...more] = await s.analyses();
    expect(more).toEqual([]);
    expect(analysis).toMatchObject({
      trigger: 'schedule',
      maxPages: 7,
      status: 'pending',
      url: 'http://127.0.0.1:9/',
    });

    const view = await s.read();
    expect(Date.parse(view.nextRunAt)).toBe(s.dueAt + DAY);
    expect(view.history).toEqual([
      {
        id: expect.any(String),
        at: new Date(s.dueAt + 1_000).toISOString(),
        dueAt: new Date(s.dueAt).toISOString(),
        outcome: 'started',
        analysisId: analysis.id,
        reason: null,
      },
    ]);

    // The same moment again: nothing is due any more.
    await dispatch(s.dueAt + 2_000);
    expect(await s.analyses()).toHaveLength(1);
    expect((await s.read()).history).toHaveLength(1);
  });

  it('skips a paused domain and records why', async () => {
    const s = await scheduledDomain();
    expect((await s.client.patch(`/api/domains/${s.domain.id}`, { isActive: false })).status).toBe(200);
    await dispatch(s.dueAt + 1_000);
    expect(await s.analyses()).toEqual([]);
    const view = await s.read();
    expect(view.history).toMatchObject([
      { outcome: 'skipped', analysisId: null, reason: expect.stringMatching(/inactive/) },
    ]);
    expect(Date.parse(view.nextRunAt)).toBe(s.dueAt + DAY);
  });

  it('records a refused start with its reason and moves on to the next time', async () => {
    const s = await scheduledDomain();
    // The domain is busy with the owner's own analysis: the one-analysis-per-domain guard refuses.
    const own = await s.client.post('/api/csp-analyses', { domainId: s.domain.id });
    expect(own.status).toBe(201);
    await dispatch(s.dueAt + 1_000);
    expect(await s.analyses()).toHaveLength(1);
    const view = await s.read();
    expect(view.history).toMatchObject([
      { outcome: 'refused', analysisId: null, reason: DOMAIN_BUSY_MESSAGE },
    ]);
    expect(Date.parse(view.nextRunAt)).toBe(s.dueAt + DAY);
  });

  it('is refused by the daily page budget like a person’s start', async () => {
    const s = await scheduledDomain({ maxPages: 500 });
    // The owner's own starts took the default 5,000 pages of the day already.
    for (let i = 0; i < 10; i++) {
      const other = await s.client.post('/api/domains', { name: `o${i}`, url: `http://127.0.0.${i + 2}:9/` });
      const res = await s.client.post('/api/csp-analyses', {
        domainId: (await other.json()).id,
        crawlRequest: { maxPages: 500 },
      });
      expect(res.status).toBe(201);
    }
    await dispatch(s.dueAt + 1_000);
    expect(await s.analyses()).toEqual([]);
    expect((await s.read()).history).toMatchObject([
      { outcome: 'refused', reason: expect.stringMatching(/^Daily page budget reached/) },
    ]);
  });

  it('starts one analysis when dispatchers run at once', async () => {
    const s = await scheduledDomain();
    const results = await Promise.all(Array.from({ length: 4 }, () => dispatch(s.dueAt + 1_000)));
    expect(results.map((r) => r.started).reduce((a, b) => a + b)).toBe(1);
    expect(await s.analyses()).toHaveLength(1);
    expect((await s.read()).history).toMatchObject([{ outcome: 'started' }]);

    // The claim itself: of two dispatchers that read the same due time, one acts on it.
    const t = await scheduledDomain();
    const record = await getSchedule(server.deps.db, t.domain.id);
    const claims = await Promise.all([
      claimDueTime(server.deps.db, record!, t.dueAt + DAY),
      claimDueTime(server.deps.db, record!, t.dueAt + DAY),
    ]);
    expect(claims.sort()).toEqual([false, true]);
  });

  it('drops the schedule of a domain deleted under it', async () => {
    const s = await scheduledDomain();
    await server.deps.db.doc.send(
      new DeleteCommand({ TableName: server.deps.db.table, Key: domainKey(s.domain.id) }),
    );
    const result = await dispatch(s.dueAt + 1_000);
    expect(result.started).toBe(0);
    expect(await getSchedule(server.deps.db, s.domain.id)).toBeNull();
  });

  it('touches only the key prefixes of its IAM policy', () => {
    expect(touched.length).toBeGreaterThan(0);
    expect(outside(touched, FUNCTION_KEY_PREFIXES.scheduleDispatcher)).toEqual([]);
    expect(touched.some((t) => t.index === 'gsi3')).toBe(true);
  });
});
