import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { updateUserFields } from '../../store/users';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { until } from '../../testing/reports';
import { itemsMentioning, userWithData } from '../../testing/user-data';

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
    const data = await userWithData(server);
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
    const data = await userWithData(server);
    const ids = [
      data.user.id,
      data.domain.id,
      data.domain.uuid,
      data.analysisId,
      data.standaloneId,
      data.configId,
    ];
    expect((await itemsMentioning(server, ids)).length).toBeGreaterThan(5);
    const res = await client.delete(`/api/admin/users/${data.user.id}`);
    expect(res.status).toBe(200);
    // The domain's reports are cleared in the background (the report consumer), then nothing is left.
    expect(
      await until(
        () => itemsMentioning(server, ids),
        (items) => items.length === 0,
      ),
    ).toEqual([]);
    expect((await data.client.get('/api/user')).status).toBe(401);
    // The username and the email can be registered again.
    expect((await client.delete(`/api/admin/users/${data.user.id}`)).status).toBe(404);
    const self = await client.delete(`/api/admin/users/${me.id}`);
    expect((await self.json()).message).toBe('You cannot delete your own account here');
  });

  it('deletes a domain with its analyses, configurations and reports, and an analysis detaching configurations', async () => {
    const { client } = await admin();
    const a = await userWithData(server);
    expect((await client.delete(`/api/admin/analyses/${a.analysisId}`)).status).toBe(200);
    const configs = (await (await a.client.get(`/api/domains/${a.domain.id}/csp-configurations`)).json())
      .configurations;
    expect(configs.map((c: { baseAnalysisId: string | null }) => c.baseAnalysisId)).toEqual([null]);
    expect(await itemsMentioning(server, [a.analysisId])).toEqual([]);
    expect((await client.delete(`/api/admin/domains/${a.domain.id}`)).status).toBe(200);
    expect(
      await until(
        () => itemsMentioning(server, [a.domain.id, a.domain.uuid, a.configId]),
        (items) => items.length === 0,
      ),
    ).toEqual([]);
    expect((await client.delete(`/api/admin/domains/${a.domain.id}`)).status).toBe(404);
    expect((await client.delete('/api/admin/analyses/nothing')).status).toBe(404);
  });
});
