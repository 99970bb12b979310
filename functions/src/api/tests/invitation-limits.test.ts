// Invitations sent per day over HTTP on DynamoDB Local: 20 per user by default (25 sent at once: 20 accepted,
// 5 refused with 429), and a per-team limit; revoking gives nothing back, nor does deleting the team and
// making it again. The counters are conditional updates of one item per user (and per team) per day.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { ratePartition } from '../../store/keys';
import { queryTable } from '../../store/query';
import { INVITATION_RATE_SCOPES } from '../../store/team-invitations';
import { registeredClient, startTestServer } from '../../testing/api-server';

const DAY = 24 * 60 * 60;
const userMessage = (n: number) =>
  `You can send at most ${n} invitations a day. Please try again after midnight UTC.`;
const teamMessage = (n: number) =>
  `A team can send at most ${n} invitations a day. Please try again after midnight UTC.`;

/** Waits for the next UTC day when this one ends within two minutes: each test counts within one day. */
async function awayFromMidnight() {
  const left = DAY - ((Date.now() / 1000) % DAY);
  if (left < 120) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 500));
}

type Account = Awaited<ReturnType<typeof registeredClient>>;
let slugs = 0;
const slug = () => `lim-${Date.now().toString(36)}-${++slugs}`;

async function newTeam(owner: Account): Promise<string> {
  const res = await owner.client.post('/api/teams', { name: 'Agency', slug: slug() });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

const invite = (owner: Account, teamId: string, email: string) =>
  owner.client.post(`/api/teams/${teamId}/invitations`, { email });

async function answer(res: Response) {
  return { status: res.status, body: (await res.json()) as { id?: string; message?: string } };
}

describe('invitations per user per day, by default', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('25 invitations sent at once by one user: 20 accepted, 5 refused with 429', async () => {
    await awayFromMidnight();
    const owner = await registeredClient(server.url);
    const teamId = await newTeam(owner);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => invite(owner, teamId, `guest${i}@example.test`).then(answer)),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.body.message).toBe(userMessage(20));
    // Only the 20 exist; the counter is one item for the day, with a TTL.
    expect(await (await owner.client.get('/api/teams/invitations')).json()).toHaveLength(20);
    const [counter] = await queryTable(
      server.deps.db,
      ratePartition(INVITATION_RATE_SCOPES.user, owner.user.id),
    );
    expect(counter?.sk).toBe(`W#${Math.floor(Date.now() / 1000 / DAY)}`);
    const { Item } = await server.deps.db.doc.send(
      new GetCommand({ TableName: server.deps.db.table, Key: counter }),
    );
    expect(Item).toMatchObject({ count: 20 });
    expect(Item?.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(Item?.expiresAt).toBeLessThanOrEqual(Date.now() / 1000 + DAY + 60);
    // Another user is not held up.
    const other = await registeredClient(server.url);
    expect((await invite(other, await newTeam(other), 'someone@example.test')).status).toBe(201);
  });
});

describe('revoking or re-creating the team gives nothing back; the team has its own limit', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { INVITATIONS_PER_USER_PER_DAY: '4', INVITATIONS_PER_TEAM_PER_DAY: '3' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts sends, not pending invitations', async () => {
    await awayFromMidnight();
    const owner = await registeredClient(server.url);
    const first = await newTeam(owner);
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await answer(await invite(owner, first, `a${i}@example.test`)));
    expect(sent.map((s) => s.status)).toEqual([201, 201, 201]);
    // The team's limit (3) is reached before the user's (4).
    const fourth = await answer(await invite(owner, first, 'a3@example.test'));
    expect(fourth).toEqual({ status: 429, body: { message: teamMessage(3) } });
    // Revoking every one of them gives nothing back.
    for (const s of sent) {
      expect((await owner.client.delete(`/api/teams/${first}/invitations/${s.body.id}`)).status).toBe(200);
    }
    expect(await (await owner.client.get('/api/teams/invitations')).json()).toEqual([]);
    expect((await answer(await invite(owner, first, 'a4@example.test'))).status).toBe(429);

    // Deleting the team and making it again: a new team, but the same user, who has 1 left today.
    expect((await owner.client.delete(`/api/teams/${first}`)).status).toBe(200);
    const second = await newTeam(owner);
    const last = await answer(await invite(owner, second, 'b0@example.test'));
    expect(last.status).toBe(201);
    const over = await answer(await invite(owner, second, 'b1@example.test'));
    expect(over).toEqual({ status: 429, body: { message: userMessage(4) } });
    expect((await owner.client.delete(`/api/teams/${second}/invitations/${last.body.id}`)).status).toBe(200);
    expect((await answer(await invite(owner, second, 'b2@example.test'))).status).toBe(429);
    // Again, once more.
    expect((await owner.client.delete(`/api/teams/${second}`)).status).toBe(200);
    expect((await answer(await invite(owner, await newTeam(owner), 'c0@example.test'))).status).toBe(429);
  });

  it('a refused invitation changes nothing: no invitation, no count taken', async () => {
    await awayFromMidnight();
    const owner = await registeredClient(server.url);
    const teamId = await newTeam(owner);
    // Refused before the counters: a bad address, then a second invitation to the same one.
    expect((await invite(owner, teamId, 'not-an-email')).status).toBe(400);
    expect((await invite(owner, teamId, 'x@example.test')).status).toBe(201);
    expect((await invite(owner, teamId, 'x@example.test')).status).toBe(409);
    // So two more fit within the team's three.
    expect((await invite(owner, teamId, 'y@example.test')).status).toBe(201);
    expect((await invite(owner, teamId, 'z@example.test')).status).toBe(201);
    expect((await invite(owner, teamId, 'w@example.test')).status).toBe(429);
    expect(await (await owner.client.get('/api/teams/invitations')).json()).toHaveLength(3);
  });
});
