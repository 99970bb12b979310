// The admin API over HTTP: 401 without a session and 403 for a user on every route, paginated lists with
// totals, the role change, and deletions whose cascades leave no orphan item (the table is scanned after).
import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { claimAnalysis, completeAnalysis, createAnalysis } from '../../store/analyses';
import { updateUserFields } from '../../store/users';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { sendReport, until } from '../../testing/reports';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function admin() {
  const account = await registeredClient(server.url);
  await updateUserFields(server.deps.db, account.user.id, { role: 'admin' });
  return account;
}

/** A user with a domain, a completed analysis, a standalone one, a configuration and a violation report. */
async function userWithData() {
  const account = await registeredClient(server.url);
  const { client, user } = account;
  const domain = await (
    await client.post('/api/domains', { name: 'Site', url: 'https://site.example/' })
  ).json();
  const a = await createAnalysis(server.deps.db, {
    userId: user.id,
    domainId: domain.id,
    url: domain.url,
    crawlRequest: crawlRequestSchema.parse({ url: domain.url }),
  });
  const runId = randomBytes(4).toString('hex');
  await claimAnalysis(server.deps.db, a.id, runId, 60_000);
  await completeAnalysis(server.deps.db, a.id, runId, {
    cspRules: { 'default-src': ["'self'"] },
    resourceStats: { totalResources: 1, uniqueDomains: 1, securityIssues: 0 },
    errors: [],
    totalPages: 1,
  });
  const standalone = await createAnalysis(server.deps.db, {
    userId: user.id,
    domainId: null,
    url: 'https://other.example/',
    crawlRequest: crawlRequestSchema.parse({ url: 'https://other.example/' }),
  });
  const config = await client.post('/api/csp-configurations', {
    domainId: domain.id,
    name: 'Main',
    baseAnalysisId: a.id,
    cspRules: { 'default-src': ["'self'"] },
  });
  expect(config.status).toBe(201);
  expect((await sendReport(server.url, domain.uuid)).status).toBe(204);
  await until(
    async () => (await (await client.get(`/api/domains/${domain.id}/uri-reports`)).json()).total,
    (total) => total > 0,
  );
  return {
    ...account,
    domain,
    analysisId: a.id,
    standaloneId: standalone.id,
    configId: (await config.json()).id,
  };
}

/** Every item of the table that mentions one of these ids anywhere (keys or attributes). */
async function itemsMentioning(ids: string[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await server.deps.db.doc.send(
      new ScanCommand({ TableName: server.deps.db.table, ExclusiveStartKey: start }),
    );
    for (const item of res.Items ?? []) {
      const text = JSON.stringify(item);
      if (ids.some((id) => text.includes(id))) found.push(item);
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return found;
}

describe('admin access', () => {
  it('answers 401 without a session and 403 to a user, on every route', async () => {
    const { client } = await registeredClient(server.url);
    const anonymous = new HttpClient(server.url);
    const calls = (c: HttpClient) => [
      c.get('/api/admin/users'),
      c.get('/api/admin/domains'),
      c.get('/api/admin/analyses'),
      c.put('/api/admin/users/x', { role: 'admin' }),
      c.delete('/api/admin/users/x'),
      c.delete('/api/admin/domains/x'),
      c.delete('/api/admin/analyses/x'),
    ];
    for (const res of await Promise.all(calls(anonymous))) expect(res.status).toBe(401);
    for (const res of await Promise.all(calls(client))) {
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe('Admin access required');
    }
  });
});

describe('admin lists', () => {
  it('lists users, domains and analyses newest first, a page at a time, with totals', async () => {
    const { client } = await admin();
    const data = await userWithData();
    const users = await (await client.get('/api/admin/users?limit=2')).json();
    expect(users.items).toHaveLength(2);
    expect(users.total).toBeGreaterThanOrEqual(3);
    expect(users.items[0]).not.toHaveProperty('passwordHash');
    expect(users.items[0]).not.toHaveProperty('pk');
    const next = await (await client.get(`/api/admin/users?limit=2&cursor=${users.nextCursor}`)).json();
    expect(next.items.map((u: { id: string }) => u.id)).not.toContain(users.items[0].id);
    const domains = await (await client.get('/api/admin/domains')).json();
    expect(domains.items.find((d: { id: string }) => d.id === data.domain.id)?.userId).toBe(data.user.id);
    const analyses = await (await client.get('/api/admin/analyses')).json();
    expect(analyses.items.map((a: { id: string }) => a.id)).toEqual(
      expect.arrayContaining([data.analysisId, data.standaloneId]),
    );
    expect(analyses.total).toBeGreaterThanOrEqual(2);

    const forged = Buffer.from(
      JSON.stringify({ pk: 'x', sk: 'y', gsi3pk: 'TYPE#DOMAIN', gsi3sk: 'z' }),
    ).toString('base64url');
    const bad = await client.get(`/api/admin/users?cursor=${forged}`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('The cursor is not valid');
    expect((await (await client.get('/api/admin/users?limit=500')).json()).message).toBe(
      'limit must be between 1 and 100',
    );
  });
});

describe('admin changes', () => {
  it("changes a user's role (their sessions end), never their own", async () => {
    const { client, user: me } = await admin();
    const target = await registeredClient(server.url);
    const bad = await client.put(`/api/admin/users/${target.user.id}`, { role: 'owner' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe("role must be 'user' or 'admin'");
    const promoted = await client.put(`/api/admin/users/${target.user.id}`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect((await promoted.json()).role).toBe('admin');
    expect((await target.client.get('/api/user')).status).toBe(401);
    const self = await client.put(`/api/admin/users/${me.id}`, { role: 'user' });
    expect(self.status).toBe(400);
    expect((await self.json()).message).toBe('You cannot change your own role');
    expect((await client.put('/api/admin/users/nobody', { role: 'user' })).status).toBe(404);
  });

  it('deletes a user with everything of theirs: no item mentions them afterwards', async () => {
    const { client, user: me } = await admin();
    const data = await userWithData();
    const ids = [
      data.user.id,
      data.domain.id,
      data.domain.uuid,
      data.analysisId,
      data.standaloneId,
      data.configId,
    ];
    expect((await itemsMentioning(ids)).length).toBeGreaterThan(5);
    const res = await client.delete(`/api/admin/users/${data.user.id}`);
    expect(res.status).toBe(200);
    expect(await itemsMentioning(ids)).toEqual([]);
    expect((await data.client.get('/api/user')).status).toBe(401);
    // The username and the email can be registered again.
    expect((await client.delete(`/api/admin/users/${data.user.id}`)).status).toBe(404);
    const self = await client.delete(`/api/admin/users/${me.id}`);
    expect((await self.json()).message).toBe('You cannot delete your own account here');
  });

  it('deletes a domain with its analyses, configurations and reports, and an analysis detaching configurations', async () => {
    const { client } = await admin();
    const a = await userWithData();
    expect((await client.delete(`/api/admin/analyses/${a.analysisId}`)).status).toBe(200);
    const configs = (await (await a.client.get(`/api/domains/${a.domain.id}/csp-configurations`)).json())
      .configurations;
    expect(configs.map((c: { baseAnalysisId: string | null }) => c.baseAnalysisId)).toEqual([null]);
    expect(await itemsMentioning([a.analysisId])).toEqual([]);
    expect((await client.delete(`/api/admin/domains/${a.domain.id}`)).status).toBe(200);
    expect(await itemsMentioning([a.domain.id, a.domain.uuid, a.configId])).toEqual([]);
    expect((await client.delete(`/api/admin/domains/${a.domain.id}`)).status).toBe(404);
    expect((await client.delete('/api/admin/analyses/nothing')).status).toBe(404);
  });
});
