// A domain's schedule over HTTP on DynamoDB Local: saved by its owner with crawl settings checked as a start
// checks them, read by team members, hidden from others; bad input a 400 that changes nothing; off leaves
// the due index; API tokens by scope; analyses record who started them; deleting the domain removes it.
import { nextRunAt } from '@csp/shared/watch/schedule';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { dueSchedules } from '../../store/schedules';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
beforeAll(async () => {
  // Started analyses stay pending: nothing here needs a crawl.
  server = await startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });
}, 60_000);
afterAll(() => server?.close());

type Account = Awaited<ReturnType<typeof registeredClient>>;

async function ownerWithDomain() {
  const owner = await registeredClient(server.url);
  const res = await owner.client.post('/api/domains', { name: 'Shop', url: 'http://127.0.0.1:9/' });
  expect(res.status).toBe(201);
  return { owner, domain: (await res.json()) as { id: string; url: string } };
}

async function memberOf(owner: Account) {
  const member = await registeredClient(server.url);
  const team = await owner.client.post('/api/teams', {
    name: 'Agency',
    slug: `s-${Date.now().toString(36)}`,
  });
  expect(team.status).toBe(201);
  const inv = await owner.client.post(`/api/teams/${(await team.json()).id}/invitations`, {
    email: `${member.username}@example.test`,
  });
  const token = new URL((await inv.json()).link).pathname.split('/').pop();
  expect((await member.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
  return member;
}

const daily = {
  frequency: 'daily',
  time: '06:30',
  timeZone: 'UTC',
  crawlRequest: { maxPages: 3, crawlDelay: 0 },
};

describe('a domain schedule', () => {
  it('is off until saved, then shows its next run, its crawl settings and an empty history', async () => {
    const { owner, domain } = await ownerWithDomain();
    const path = `/api/domains/${domain.id}/schedule`;
    expect(await (await owner.client.get(path)).json()).toEqual({
      schedule: { frequency: 'off', time: '06:00', weekday: 1, timeZone: 'UTC' },
      crawlRequest: null,
      nextRunAt: null,
      updatedAt: null,
      history: [],
    });

    const before = Date.now();
    const res = await owner.client.put(path, daily);
    expect(res.status).toBe(200);
    const saved = await res.json();
    const expected = nextRunAt({ frequency: 'daily', time: '06:30', weekday: 1, timeZone: 'UTC' }, before)!;
    expect(Date.parse(saved.nextRunAt)).toBe(expected);
    expect(new Date(saved.nextRunAt).toISOString().slice(11, 16)).toBe('06:30');
    // The settings as a start stores them: defaults filled in, the domain's own URL crawled.
    expect(saved.crawlRequest).toMatchObject({
      url: domain.url,
      maxPages: 3,
      crawlDelay: 0,
      policyTarget: 'header',
    });
    expect(saved.history).toEqual([]);
    expect(await (await owner.client.get(path)).json()).toEqual(saved);

    // In the due index at its next run, and only then.
    const due = async (at: number) =>
      (await dueSchedules(server.deps.db, at)).filter((s) => s.domainId === domain.id);
    expect(await due(expected - 1)).toEqual([]);
    expect(await due(expected)).toHaveLength(1);

    // Weekly in a time zone: the weekday and zone are kept.
    const weekly = await owner.client.put(path, {
      frequency: 'weekly',
      weekday: 2,
      time: '09:00',
      timeZone: 'Europe/Paris',
    });
    const w = await weekly.json();
    expect(w.schedule).toEqual({ frequency: 'weekly', weekday: 2, time: '09:00', timeZone: 'Europe/Paris' });
    expect(new Date(w.nextRunAt).getUTCDay()).toBe(2);

    // Off: no next run, and out of the due index.
    const off = await (await owner.client.put(path, { ...daily, frequency: 'off' })).json();
    expect(off.nextRunAt).toBeNull();
    expect(await due(Date.now() + 30 * 86_400_000)).toEqual([]);
  });

  it('refuses bad input with a clear 400 and keeps what was saved', async () => {
    const { owner, domain } = await ownerWithDomain();
    const path = `/api/domains/${domain.id}/schedule`;
    const saved = await (await owner.client.put(path, daily)).json();
    const cases: [unknown, string][] = [
      [{ ...daily, time: '25:00' }, 'Time must be HH:MM (24 h)'],
      [{ ...daily, time: '6:30' }, 'Time must be HH:MM (24 h)'],
      [{ ...daily, timeZone: 'Mars/Olympus_Mons' }, 'Unknown time zone'],
      [{ ...daily, crawlRequest: { maxPages: 0 } }, 'maxPages must be between'],
      [{ ...daily, crawlRequest: { urlList: ['ftp://x'] } }, 'valid http(s) URL'],
    ];
    for (const [body, message] of cases) {
      const res = await owner.client.put(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toContain(message);
    }
    for (const body of [
      { ...daily, frequency: 'hourly' },
      { ...daily, weekday: 7 },
      { ...daily, extra: 1 },
      {},
    ]) {
      const res = await owner.client.put(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (await res.json()).message).toBe('string');
    }
    expect(await (await owner.client.get(path)).json()).toEqual(saved);
  });

  it('is read by team members, changed only by its owner, and a 404 for anyone else', async () => {
    const { owner, domain } = await ownerWithDomain();
    const path = `/api/domains/${domain.id}/schedule`;
    const saved = await (await owner.client.put(path, daily)).json();
    const member = await memberOf(owner);
    expect(await (await member.client.get(path)).json()).toEqual(saved);
    const refused = await member.client.put(path, { ...daily, frequency: 'off' });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(/read-only|owner/i);

    const stranger = await registeredClient(server.url);
    expect((await stranger.client.get(path)).status).toBe(404);
    expect((await stranger.client.put(path, daily)).status).toBe(404);
    expect((await stranger.client.get('/api/domains/nope/schedule')).status).toBe(404);
    const anonymous = new HttpClient(server.url);
    expect((await anonymous.get(path)).status).toBe(401);
    expect((await anonymous.put(path, daily)).status).toBe(401);
    expect(await (await owner.client.get(path)).json()).toEqual(saved);
  });

  it('is reached with API tokens by scope, and analyses record who started them', async () => {
    const { owner, domain } = await ownerWithDomain();
    const path = `/api/domains/${domain.id}/schedule`;
    const token = async (scopes: string[]) =>
      (await (await owner.client.post('/api/user/api-tokens', { name: scopes.join(), scopes })).json())
        .token as string;
    const pipeline = new HttpClient(server.url, null);
    const reader = { authorization: `Bearer ${await token(['read'])}` };
    const writer = { authorization: `Bearer ${await token(['read', 'analyses:write'])}` };
    expect((await pipeline.get(path, reader)).status).toBe(200);
    const refused = await pipeline.put(path, daily, reader);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toContain("'analyses:write'");
    expect((await pipeline.put(path, daily, writer)).status).toBe(200);

    const byToken = await pipeline.post('/api/csp-analyses', { domainId: domain.id }, writer);
    expect(byToken.status).toBe(201);
    expect((await byToken.json()).trigger).toBe('api');
    const { owner: person, domain: other } = await ownerWithDomain();
    const byPerson = await person.client.post('/api/csp-analyses', { domainId: other.id });
    expect((await byPerson.json()).trigger).toBe('user');
  });

  it('is in the OpenAPI document with its body schema and token scopes', async () => {
    const doc = await (await new HttpClient(server.url).get('/api/openapi.json')).json();
    const ops = doc.paths['/api/domains/{id}/schedule'];
    expect(ops.get['x-token-scope']).toBe('read');
    expect(ops.put['x-token-scope']).toBe('analyses:write');
    const body = ops.put.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['frequency', 'time']));
    expect(body.properties.frequency.enum).toEqual(['off', 'daily', 'weekly']);
  });

  it('goes with its domain', async () => {
    const { owner, domain } = await ownerWithDomain();
    const path = `/api/domains/${domain.id}/schedule`;
    expect((await owner.client.put(path, daily)).status).toBe(200);
    expect((await owner.client.delete(`/api/domains/${domain.id}`)).status).toBe(200);
    expect((await owner.client.get(path)).status).toBe(404);
    expect(
      (await dueSchedules(server.deps.db, Date.now() + 2 * 86_400_000)).map((s) => s.domainId),
    ).not.toContain(domain.id);
  });
});
