// The domains list's watch figures over HTTP on DynamoDB Local: per domain, the scripts pending review
// (falling when the owner authorizes one) and the latest watched run's drift; a domain never watched has
// none of either.
import type { WatchedScript } from '@csp/shared/watch/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { putWatchRun, type WatchCounts } from '../../store/watch-snapshots';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { updateInventory } from '../../watch/inventory-update';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });
}, 60_000);
afterAll(() => server?.close());

const script = (url: string): WatchedScript => ({
  key: url,
  kind: 'external',
  url,
  digest: `sha384-${url.length}`,
  party: 'first',
  initiator: null,
  pages: ['https://shop.example.com/'],
  pageCount: 1,
});
const counts = (drift: WatchCounts['drift']): WatchCounts => ({
  scriptsAdded: 0,
  scriptsChanged: 0,
  scriptsRemoved: 0,
  originChanges: 0,
  policyChanges: 0,
  headerChanges: 0,
  drift,
});
const run = (domainId: string, analysisId: string, drift: WatchCounts['drift'], previous: string | null) => ({
  analysisId,
  domainId,
  completedAt: `2026-11-2${analysisId.at(-1)}T06:00:00.000Z`,
  previousAnalysisId: previous,
  counts: counts(drift),
  snapshot: { analysisId, completedAt: '2026-11-20T06:00:00.000Z', scripts: [], policy: {}, headers: [] },
  changes: null,
  drift: null,
});

describe('the domains list watch figures', () => {
  it('counts the scripts pending review and gives the latest run drift', async () => {
    const owner = await registeredClient(server.url);
    const post = async (name: string) =>
      (await (await owner.client.post('/api/domains', { name, url: `https://${name}.example.com/` })).json())
        .id as string;
    const watched = await post('watched');
    const quiet = await post('quiet');
    const { db } = server.deps;
    const urls = ['a', 'b', 'c'].map((n) => `https://shop.example.com/${n}.js`);
    await updateInventory(db, {
      domainId: watched,
      snapshot: {
        analysisId: '01JDC000000000000000000001',
        completedAt: '2026-11-21T06:00:00.000Z',
        scripts: urls.map(script),
      },
    });
    // The older run matched, the newer one drifts: the list gives the newer.
    await putWatchRun(db, run(watched, '01JDC000000000000000000001', 'matches', null));
    await putWatchRun(
      db,
      run(watched, '01JDC000000000000000000002', 'differs', '01JDC000000000000000000001'),
    );

    const figures = async () => {
      const list = (await (await owner.client.get('/api/domains')).json()) as {
        id: string;
        watch: unknown;
      }[];
      return Object.fromEntries(list.map((d) => [d.id, d.watch]));
    };
    expect(await figures()).toEqual({
      [watched]: {
        pendingScripts: 3,
        lastDrift: {
          state: 'differs',
          analysisId: '01JDC000000000000000000002',
          completedAt: '2026-11-22T06:00:00.000Z',
        },
      },
      [quiet]: { pendingScripts: 0, lastDrift: null },
    });

    const authorized = await owner.client.post(`/api/domains/${watched}/scripts/authorize`, {
      keys: [urls[0]],
      justification: 'Our own bundle',
    });
    expect(authorized.status).toBe(200);
    expect(((await figures())[watched] as { pendingScripts: number }).pendingScripts).toBe(2);

    // A run with no active configuration has no drift: the figure says none, not the older run's.
    await putWatchRun(db, run(watched, '01JDC000000000000000000003', null, '01JDC000000000000000000002'));
    expect(((await figures())[watched] as { lastDrift: unknown }).lastDrift).toBeNull();
  }, 60_000);
});
