// The changes API over HTTP on DynamoDB Local: the owner, a team member and a read-scoped API token read a
// domain's timeline and an analysis' changes; someone else gets a 404; a bad page query a 400 with its reason;
// the domain's deletion removes its runs.
// (What the runs hold is proved on real crawls in watch/watch-changes.test.ts.)
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { createAnalysis } from '../../store/analyses';
import { failAnalysis } from '../../store/analysis-runs';
import { watchRunsPartition } from '../../store/keys';
import { queryTable } from '../../store/query';
import { putWatchRun } from '../../store/watch-snapshots';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });
}, 60_000);
afterAll(() => server?.close());

type Account = Awaited<ReturnType<typeof registeredClient>>;

async function memberOf(owner: Account): Promise<Account> {
  const member = await registeredClient(server.url);
  const team = await (
    await owner.client.post('/api/teams', { name: 'Agency', slug: `team-${Date.now().toString(36)}` })
  ).json();
  const inv = await (
    await owner.client.post(`/api/teams/${team.id}/invitations`, { email: `${member.username}@example.test` })
  ).json();
  const token = new URL(inv.link).pathname.split('/').pop();
  expect((await member.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
  return member;
}

const snapshot = (analysisId: string) => ({
  analysisId,
  completedAt: '2026-11-26T00:00:00.000Z',
  scripts: [],
  policy: {},
  headers: [],
});

describe('changes API', () => {
  it('owner, team member and a read token read it; others get 404; bad queries a 400', async () => {
    const owner = await registeredClient(server.url);
    const domain = await (
      await owner.client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com' })
    ).json();
    const { db } = server.deps;
    const analyses = [];
    for (let i = 0; i < 2; i++) {
      analyses.push(
        await createAnalysis(db, {
          userId: owner.user.id,
          domainId: domain.id,
          url: 'https://shop.example.com/',
          crawlRequest: crawlRequestSchema.parse({ url: 'https://shop.example.com/' }),
        }),
      );
      // Ended, so the domain may have its next one.
      await failAnalysis(db, analyses.at(-1)!.id, null, ['stopped by the test']);
    }
    const [first, second] = analyses as [(typeof analyses)[0], (typeof analyses)[0]];
    const counts = {
      scriptsAdded: 0,
      scriptsChanged: 0,
      scriptsRemoved: 0,
      originChanges: 0,
      policyChanges: 0,
      headerChanges: 1,
      drift: 'none-served' as const,
    };
    const common = { domainId: domain.id, completedAt: '2026-11-26T00:00:00.000Z', counts, drift: null };
    await putWatchRun(db, {
      ...common,
      analysisId: first.id,
      previousAnalysisId: null,
      snapshot: snapshot(first.id),
      changes: null,
    });
    await putWatchRun(db, {
      ...common,
      analysisId: second.id,
      previousAnalysisId: first.id,
      snapshot: snapshot(second.id),
      changes: { scripts: { added: [], changed: [], removed: [] }, origins: [], policy: [], headers: [] },
    });

    const token = (
      await (await owner.client.post('/api/user/api-tokens', { name: 'ci', scopes: ['read'] })).json()
    ).token as string;
    const pipeline = new HttpClient(server.url, null);
    const bearer = { authorization: `Bearer ${token}` };
    const member = await memberOf(owner);
    const readers = [
      (p: string) => owner.client.get(p),
      (p: string) => member.client.get(p),
      (p: string) => pipeline.get(p, bearer),
    ];
    for (const get of readers) {
      const timeline = await get(`/api/domains/${domain.id}/changes`);
      expect(timeline.status).toBe(200);
      expect(await timeline.json()).toMatchObject({
        runs: [{ analysisId: second.id, previousAnalysisId: first.id, counts }],
        nextCursor: null,
      });
      const one = await get(`/api/csp/analyze/${second.id}/changes`);
      expect(one.status).toBe(200);
      expect((await one.json()).run).toMatchObject({ analysisId: second.id, counts });
    }

    const stranger = await registeredClient(server.url);
    for (const path of [`/api/domains/${domain.id}/changes`, `/api/csp/analyze/${second.id}/changes`]) {
      const res = await stranger.client.get(path);
      expect(res.status).toBe(404);
    }
    const badLimit = await owner.client.get(`/api/domains/${domain.id}/changes?limit=500`);
    expect(badLimit.status).toBe(400);
    expect((await badLimit.json()).message).toContain('limit must be between 1 and 50');
    const badCursor = await owner.client.get(`/api/domains/${domain.id}/changes?cursor=RUN%23x`);
    expect(badCursor.status).toBe(400);
    expect((await badCursor.json()).message).toContain('cursor is not valid');

    // The domain's deletion takes its watched runs with it.
    expect(await queryTable(db, watchRunsPartition(domain.id))).toHaveLength(2);
    expect((await owner.client.delete(`/api/domains/${domain.id}`)).status).toBe(200);
    expect(await queryTable(db, watchRunsPartition(domain.id))).toEqual([]);
  });
});
