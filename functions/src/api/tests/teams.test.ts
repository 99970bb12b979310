// Teams over HTTP: creation and its validation, invitations (owner only, accepted by the right person once,
// refused when expired, revoked, used or full, parallel accepts never overfill), members' read-only access
// to the owner's domains, leaving, removal and deletion (members detached, no orphan items), achievements,
// and the invitation e-mail through a real SMTP server on loopback.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { INVITATION_PROBLEMS } from '@csp/shared/schemas/team';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { invitationKey } from '../../store/keys';
import { updateUserFields } from '../../store/users';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { itemsMentioning, userWithData } from '../../testing/user-data';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type Account = Awaited<ReturnType<typeof registeredClient>>;
const emailOf = (a: Account) => `${a.username}@example.test`;
let slugs = 0;
const slug = () => `team-${Date.now().toString(36)}-${++slugs}`;

async function teamOf(owner: Account, extra: Record<string, unknown> = {}) {
  const res = await owner.client.post('/api/teams', { name: 'Agency', slug: slug(), ...extra });
  expect(res.status).toBe(201);
  return res.json();
}

async function invite(owner: Account, teamId: string, email: string) {
  const res = await owner.client.post(`/api/teams/${teamId}/invitations`, { email });
  expect(res.status).toBe(201);
  const body = await res.json();
  return { ...body, token: new URL(body.link).pathname.split('/').pop() as string };
}

const accept = (a: Account, token: string) => a.client.post(`/api/invitations/${token}/accept`);

/** An owner with a team and one member who joined through an invitation. */
async function teamWithMember(extra: Record<string, unknown> = {}) {
  const owner = await registeredClient(server.url);
  const member = await registeredClient(server.url);
  const team = await teamOf(owner, extra);
  const inv = await invite(owner, team.id, emailOf(member));
  expect((await accept(member, inv.token)).status).toBe(200);
  return { owner, member, team };
}

describe('creating a team', () => {
  it('creates one, shows it as the user team and lists its owner as the only member', async () => {
    const owner = await registeredClient(server.url);
    expect(await (await owner.client.get('/api/user/team')).json()).toBeNull();
    expect(await (await owner.client.get('/api/teams/members')).json()).toEqual([]);
    const s = slug();
    const res = await owner.client.post('/api/teams', {
      name: ' Agency ',
      slug: s.toUpperCase(),
      description: 'Our sites',
      maxMembers: 10,
    });
    expect(res.status).toBe(201);
    const team = await res.json();
    expect(team).toMatchObject({
      name: 'Agency',
      slug: s,
      description: 'Our sites',
      ownerId: owner.user.id,
      maxMembers: 10,
      memberCount: 1,
    });
    expect(await (await owner.client.get('/api/user/team')).json()).toEqual(team);
    expect((await (await owner.client.get('/api/user')).json()).teamId).toBe(team.id);
    const members = await (await owner.client.get('/api/teams/members')).json();
    expect(members).toEqual([
      expect.objectContaining({ id: owner.user.id, role: 'owner', email: emailOf(owner), firstName: 'Ada' }),
    ]);
    expect(members[0].joinedAt).toBe(team.createdAt);
  });

  it('bounds maxMembers to 2–50 and makes a non-numeric one 5', async () => {
    for (const [given, stored] of [
      ['abc', 5],
      [undefined, 5],
      [1, 2],
      [99, 50],
      ['7', 7],
    ] as const) {
      const owner = await registeredClient(server.url);
      expect((await teamOf(owner, { maxMembers: given })).maxMembers).toBe(stored);
    }
  });

  it('refuses bad input with a message, a second team, a taken slug, and anonymous callers', async () => {
    const owner = await registeredClient(server.url);
    const cases: [Record<string, unknown>, string][] = [
      [{ slug: 'ok-slug' }, 'Team name is required'],
      [{ name: '  ', slug: 'ok-slug' }, 'Team name is required'],
      [{ name: 'A' }, 'Team slug is required'],
      [{ name: 'A', slug: 'x' }, 'Team slug must be at least 2 characters'],
      [
        { name: 'A', slug: 'no spaces' },
        'Team slug may contain only letters, digits and single hyphens between them',
      ],
      [
        { name: 'A', slug: '-edge' },
        'Team slug may contain only letters, digits and single hyphens between them',
      ],
      [{ name: 'x'.repeat(101), slug: 'ok-slug' }, 'Team name must be at most 100 characters'],
      [
        { name: 'A', slug: 'ok-slug', description: 'd'.repeat(501) },
        'Description must be at most 500 characters',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await owner.client.post('/api/teams', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    expect(await (await owner.client.get('/api/user/team')).json()).toBeNull();

    const team = await teamOf(owner);
    const again = await owner.client.post('/api/teams', { name: 'B', slug: slug() });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('You already belong to a team');

    const other = await registeredClient(server.url);
    const taken = await other.client.post('/api/teams', { name: 'Copy', slug: team.slug.toUpperCase() });
    expect(taken.status).toBe(409);
    expect((await taken.json()).issues).toEqual([{ path: 'slug', message: 'That team slug is taken' }]);
    expect((await (await other.client.get('/api/user')).json()).teamId).toBeNull();

    const anonymous = new HttpClient(server.url);
    for (const res of await Promise.all([
      anonymous.post('/api/teams', { name: 'A', slug: slug() }),
      anonymous.get('/api/user/team'),
      anonymous.get('/api/teams/members'),
      anonymous.get('/api/teams/invitations'),
      anonymous.post(`/api/teams/${team.id}/invitations`, { email: 'a@b.test' }),
      anonymous.get('/api/invitations/x'),
      anonymous.post('/api/invitations/x/accept'),
      anonymous.delete(`/api/teams/${team.id}`),
    ])) {
      expect(res.status).toBe(401);
    }
  });

  it('unlocks Team Player for the creator and Growing Team when a first member joins', async () => {
    const { owner } = await teamWithMember();
    const types = (await (await owner.client.get('/api/achievements')).json()).map(
      (a: { type: string }) => a.type,
    );
    expect(types).toEqual(expect.arrayContaining(['team-created', 'first-member']));
  });
});

describe('invitations', () => {
  it('lets only the owner invite, with a unique unguessable link that expires in 7 days', async () => {
    const { owner, member, team } = await teamWithMember();
    const a = await invite(owner, team.id, 'Someone@Example.test');
    const b = await invite(owner, team.id, 'other@example.test');
    expect(a).toMatchObject({
      email: 'someone@example.test',
      role: 'member',
      expired: false,
      emailSent: false,
    });
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.link).toBe(`${server.url}/invite/${a.token}`);
    const days = (Date.parse(a.expiresAt) - Date.parse(a.createdAt)) / 86_400_000;
    expect(days).toBe(7);

    const forMember = await member.client.post(`/api/teams/${team.id}/invitations`, {
      email: 'x@example.test',
    });
    expect(forMember.status).toBe(403);
    expect((await forMember.json()).message).toBe('Only the team owner can do this');
    const stranger = await registeredClient(server.url);
    expect(
      (await stranger.client.post(`/api/teams/${team.id}/invitations`, { email: 'x@example.test' })).status,
    ).toBe(404);

    // The owner sees the links, a member the list without them.
    const ownerList = await (await owner.client.get('/api/teams/invitations')).json();
    expect(ownerList.map((i: { email: string }) => i.email)).toEqual([
      'other@example.test',
      'someone@example.test',
    ]);
    expect(ownerList[0].link).toBe(b.link);
    const memberList = await (await member.client.get('/api/teams/invitations')).json();
    expect(memberList).toHaveLength(2);
    expect(memberList[0].link).toBeUndefined();
    expect(await (await stranger.client.get('/api/teams/invitations')).json()).toEqual([]);
  });

  it('refuses a bad email, a second pending invitation to one address and a member’s address', async () => {
    const { owner, member, team } = await teamWithMember();
    for (const email of ['', 'not-an-email', 'a@b']) {
      const res = await owner.client.post(`/api/teams/${team.id}/invitations`, { email });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe('Please enter a valid email');
    }
    const role = await owner.client.post(`/api/teams/${team.id}/invitations`, {
      email: 'a@example.test',
      role: 'owner',
    });
    expect(role.status).toBe(400);
    expect((await role.json()).message).toBe("An invitation's role can only be member");
    await invite(owner, team.id, 'a@example.test');
    const twice = await owner.client.post(`/api/teams/${team.id}/invitations`, { email: 'A@example.test' });
    expect(twice.status).toBe(409);
    const already = await owner.client.post(`/api/teams/${team.id}/invitations`, { email: emailOf(member) });
    expect(already.status).toBe(409);
    expect((await already.json()).message).toBe('That person is already a member of this team');
  });

  it('is accepted once, by the person it was sent to', async () => {
    const owner = await registeredClient(server.url);
    const invited = await registeredClient(server.url);
    const other = await registeredClient(server.url);
    const team = await teamOf(owner);
    const inv = await invite(owner, team.id, emailOf(invited).toUpperCase());

    const preview = await (await invited.client.get(`/api/invitations/${inv.token}`)).json();
    expect(preview).toEqual({
      teamName: 'Agency',
      invitedBy: 'Ada Lovelace',
      email: emailOf(invited),
      expiresAt: inv.expiresAt,
      problem: null,
    });
    const wrong = await accept(other, inv.token);
    expect(wrong.status).toBe(403);
    expect((await wrong.json()).message).toBe(INVITATION_PROBLEMS.wrongEmail);
    expect((await (await other.client.get(`/api/invitations/${inv.token}`)).json()).problem).toBe(
      INVITATION_PROBLEMS.wrongEmail,
    );

    const ok = await accept(invited, inv.token);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: team.id, memberCount: 2 });
    expect((await (await invited.client.get('/api/user')).json()).teamId).toBe(team.id);
    const members = await (await owner.client.get('/api/teams/members')).json();
    expect(members.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [owner.user.id, 'owner'],
      [invited.user.id, 'member'],
    ]);
    // Used: not again, and no longer pending.
    const again = await accept(invited, inv.token);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(INVITATION_PROBLEMS.used);
    expect(await (await owner.client.get('/api/teams/invitations')).json()).toEqual([]);

    for (const token of ['nope', 'A'.repeat(43)]) {
      expect((await invited.client.get(`/api/invitations/${token}`)).status).toBe(404);
      expect((await accept(invited, token)).status).toBe(404);
    }
  });

  it('is refused when expired, revoked, the team is full, or the user is in another team', async () => {
    const owner = await registeredClient(server.url);
    const team = await teamOf(owner, { maxMembers: 2 });
    const [b, c, d, e] = (await Promise.all([1, 2, 3, 4].map(() => registeredClient(server.url)))) as [
      Account,
      Account,
      Account,
      Account,
    ];
    const [ib, ic, id, ie] = await Promise.all([b, c, d, e].map((x) => invite(owner, team.id, emailOf(x))));
    if (!ib || !ic || !id || !ie) throw new Error('invitations missing');

    await server.deps.db.doc.send(
      new UpdateCommand({
        TableName: server.deps.db.table,
        Key: invitationKey(ib.id),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const expired = await accept(b as Account, ib.token);
    expect(expired.status).toBe(409);
    expect((await expired.json()).message).toBe(INVITATION_PROBLEMS.expired);
    expect(
      (await (await owner.client.get('/api/teams/invitations')).json()).find(
        (i: { id: string }) => i.id === ib.id,
      ).expired,
    ).toBe(true);

    const revoke = await owner.client.delete(`/api/teams/${team.id}/invitations/${ic.id}`);
    expect(revoke.status).toBe(200);
    const revoked = await accept(c as Account, ic.token);
    expect(revoked.status).toBe(409);
    expect((await revoked.json()).message).toBe(INVITATION_PROBLEMS.revoked);
    expect((await owner.client.delete(`/api/teams/${team.id}/invitations/${ic.id}`)).status).toBe(409);

    // In another team already.
    const elsewhere = await teamOf(e);
    const inTeam = await accept(e, ie.token);
    expect(inTeam.status).toBe(409);
    expect((await inTeam.json()).message).toBe(INVITATION_PROBLEMS.inTeam);
    expect((await (await e.client.get('/api/user')).json()).teamId).toBe(elsewhere.id);

    // d fills the last place; then the team is full for anyone else.
    expect((await accept(d as Account, id.token)).status).toBe(200);
    const more = await owner.client.post(`/api/teams/${team.id}/invitations`, { email: 'late@example.test' });
    expect(more.status).toBe(409);
    expect((await more.json()).message).toBe(INVITATION_PROBLEMS.full);
  });

  it('never lets parallel accepts overfill a team', async () => {
    const owner = await registeredClient(server.url);
    const team = await teamOf(owner, { maxMembers: 3 });
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => registeredClient(server.url)));
    const tokens: string[] = [];
    for (const p of people) tokens.push((await invite(owner, team.id, emailOf(p))).token);
    const results = await Promise.all(people.map((p, i) => accept(p, tokens[i] ?? '')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) {
      expect((await r.json()).message).toBe(INVITATION_PROBLEMS.full);
    }
    expect(await (await owner.client.get('/api/user/team')).json()).toMatchObject({ memberCount: 3 });
    expect(await (await owner.client.get('/api/teams/members')).json()).toHaveLength(3);
  });

  it('mails the invitation with no free text but the team name, one line, cut and marked as the owner’s', async () => {
    const received: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, done) {
        let text = '';
        stream.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        stream.on('end', () => {
          received.push(text);
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as { port: number }).port;
    const mailing = await startTestServer({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'CSP Generator <team@csp.test>' },
    });
    try {
      const owner = await registeredClient(mailing.url, { firstName: 'Grace', lastName: 'Hopper' });
      // A name that tries to pass for our words: line breaks, a bidi override, then far more than 60 characters.
      const name = `Line\nBreak\u202e \r\n\nURGENT: your account is locked, sign in at https://evil.example/ now ${'x'.repeat(10)}`;
      const res = await owner.client.post('/api/teams', {
        name,
        slug: slug(),
        description: 'Description text that must not be mailed',
      });
      expect(res.status).toBe(201);
      const team = await res.json();
      const sent = await owner.client.post(`/api/teams/${team.id}/invitations`, {
        email: 'new@example.test',
      });
      expect(sent.status).toBe(201);
      const body = await sent.json();
      expect(body.emailSent).toBe(true);
      expect(received).toHaveLength(1);
      const mail = decodeMail(received[0]!);
      expect(mail.headers).toMatch(/^To: new@example\.test$/m);
      expect(mail.headers).toMatch(/^From: CSP Generator <team@csp\.test>$/m);
      expect(mail.headers).toMatch(/^Subject: You are invited to join a team on CSP Generator$/m);
      // The whole text, so nothing else of the inviter's choosing is in it: the name cut to 60 characters.
      const shown = 'Line Break URGENT: your account is locked, sign in at https:…';
      expect(Array.from(shown)).toHaveLength(61);
      expect(mail.text).toBe(
        [
          'You are invited to join a team on CSP Generator.',
          '',
          "The team's name, as its owner wrote it (CSP Generator did not write it):",
          `    "${shown}"`,
          '',
          'To accept, sign in to CSP Generator with this e-mail address, then open this link:',
          body.link,
          '',
          `The link expires on ${new Date(body.expiresAt).toUTCString()}.`,
          "If you didn't expect this invitation, you can ignore this message.",
        ].join('\n'),
      );
      for (const text of ['Grace', 'Hopper', owner.username, 'Description', 'evil.example']) {
        expect(received[0]).not.toContain(text);
      }
    } finally {
      await mailing.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

/** Headers (unfolded) and the text body (quoted-printable decoded, CRLF as LF, no final newline) of a mail. */
function decodeMail(raw: string): { headers: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, ' ')
    .replace(/\r\n/g, '\n');
  let text = raw.slice(split + 4);
  if (/^Content-Transfer-Encoding: quoted-printable$/im.test(headers)) {
    text = text.replace(/=\r\n/g, '');
    text = Buffer.from(
      text.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  }
  return { headers, text: text.replace(/\r\n/g, '\n').replace(/\n+$/, '') };
}

describe("members and the owner's domains", () => {
  it('lets members read the owner’s domains, analyses, configurations and reports, and change nothing', async () => {
    const owner = await userWithData(server);
    const member = await registeredClient(server.url);
    const team = await teamOf(owner);
    const inv = await invite(owner, team.id, emailOf(member));
    expect((await accept(member, inv.token)).status).toBe(200);
    const own = await (
      await member.client.post('/api/domains', { name: 'Mine', url: 'https://mine.example/' })
    ).json();
    const d = owner.domain.id;

    const list = await (await member.client.get('/api/domains')).json();
    expect(list.map((x: { id: string; access: string }) => [x.id, x.access])).toEqual([
      [own.id, 'owner'],
      [d, 'team'],
    ]);
    // The owner does not see the member's own domain.
    expect((await (await owner.client.get('/api/domains')).json()).map((x: { id: string }) => x.id)).toEqual([
      d,
    ]);
    expect((await owner.client.get(`/api/domains/${own.id}`)).status).toBe(404);

    const reads = [
      `/api/domains/${d}`,
      `/api/domains/${d}/analyses`,
      `/api/csp/analyze/${owner.analysisId}`,
      `/api/domains/${d}/csp-configurations`,
      `/api/csp-configurations/${owner.configId}/export?format=nginx`,
      `/api/domains/${d}/uri-reports`,
      `/api/domains/${d}/report-suggestions`,
    ];
    for (const path of reads) expect((await member.client.get(path)).status, path).toBe(200);
    expect((await (await member.client.get(`/api/domains/${d}`)).json()).access).toBe('team');
    // Standalone analyses stay private.
    expect((await member.client.get(`/api/csp/analyze/${owner.standaloneId}`)).status).toBe(404);

    const reportId = (await (await member.client.get(`/api/domains/${d}/uri-reports`)).json()).reports[0].id;
    const writes = [
      member.client.patch(`/api/domains/${d}`, { name: 'Renamed' }),
      member.client.delete(`/api/domains/${d}`),
      member.client.post('/api/csp-analyses', { domainId: d, crawlRequest: {} }),
      member.client.post('/api/csp-configurations', {
        domainId: d,
        name: 'Mine',
        baseAnalysisId: owner.analysisId,
        cspRules: { 'default-src': ["'self'"] },
      }),
      member.client.put(`/api/csp-configurations/${owner.configId}`, {
        name: 'Mine',
        baseAnalysisId: owner.analysisId,
        cspRules: { 'default-src': ["'self'"] },
      }),
      member.client.delete(`/api/csp-configurations/${owner.configId}`),
      member.client.delete(`/api/uri-reports/${reportId}`),
      member.client.delete(`/api/domains/${d}/uri-reports`),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status, res.url).toBe(403);
      expect((await res.json()).message).toBe(
        "This domain belongs to your team's owner: members can see it but not change it",
      );
    }
    // Nothing changed.
    expect(await (await owner.client.get(`/api/domains/${d}`)).json()).toMatchObject({
      name: 'Site',
      totalScans: 0,
    });
    expect(
      (await (await owner.client.get(`/api/domains/${d}/csp-configurations`)).json()).configurations,
    ).toHaveLength(1);
    expect((await (await owner.client.get(`/api/domains/${d}/uri-reports`)).json()).total).toBe(1);

    // After leaving, the team's domains are gone from view.
    expect((await member.client.delete(`/api/teams/${team.id}/members/${member.user.id}`)).status).toBe(200);
    for (const path of reads) expect((await member.client.get(path)).status, path).toBe(404);
    expect((await (await member.client.get('/api/domains')).json()).map((x: { id: string }) => x.id)).toEqual(
      [own.id],
    );
  });
});

describe('leaving, removing and deleting', () => {
  it('lets a member leave, the owner remove a member, and never the owner leave', async () => {
    const { owner, member, team } = await teamWithMember();
    const third = await registeredClient(server.url);
    expect((await accept(third, (await invite(owner, team.id, emailOf(third))).token)).status).toBe(200);

    // A member cannot remove someone else; the owner cannot leave.
    const byMember = await member.client.delete(`/api/teams/${team.id}/members/${third.user.id}`);
    expect(byMember.status).toBe(403);
    const ownerLeaves = await owner.client.delete(`/api/teams/${team.id}/members/${owner.user.id}`);
    expect(ownerLeaves.status).toBe(409);
    expect((await ownerLeaves.json()).message).toBe(
      'The owner cannot leave the team: delete the team instead',
    );
    expect((await member.client.delete(`/api/teams/${team.id}`)).status).toBe(403);

    expect((await member.client.delete(`/api/teams/${team.id}/members/${member.user.id}`)).status).toBe(200);
    expect((await (await member.client.get('/api/user')).json()).teamId).toBeNull();
    expect(await (await member.client.get('/api/user/team')).json()).toBeNull();
    expect((await owner.client.delete(`/api/teams/${team.id}/members/${third.user.id}`)).status).toBe(200);
    expect((await owner.client.delete(`/api/teams/${team.id}/members/${third.user.id}`)).status).toBe(404);
    expect(await (await owner.client.get('/api/user/team')).json()).toMatchObject({ memberCount: 1 });
    expect(
      (await (await owner.client.get('/api/teams/members')).json()).map((m: { id: string }) => m.id),
    ).toEqual([owner.user.id]);
  });

  it("deletes a team: members' teamId becomes null, its invitations and slug go, nothing is left", async () => {
    const { owner, member, team } = await teamWithMember();
    const pending = await invite(owner, team.id, 'later@example.test');
    const stranger = await registeredClient(server.url);
    expect((await stranger.client.delete(`/api/teams/${team.id}`)).status).toBe(404);

    expect((await owner.client.delete(`/api/teams/${team.id}`)).status).toBe(200);
    for (const a of [owner, member]) {
      expect((await (await a.client.get('/api/user')).json()).teamId).toBeNull();
      expect(await (await a.client.get('/api/user/team')).json()).toBeNull();
    }
    expect((await member.client.get(`/api/invitations/${pending.token}`)).status).toBe(404);
    expect(await itemsMentioning(server, [team.id, pending.token])).toEqual([]);
    // The slug is free again.
    expect((await stranger.client.post('/api/teams', { name: 'Again', slug: team.slug })).status).toBe(201);
  });

  it("deleting the owner's account deletes the team; deleting a member's leaves it one fewer", async () => {
    const adminAccount = await registeredClient(server.url);
    await updateUserFields(server.deps.db, adminAccount.user.id, { role: 'admin' });
    const { owner, member, team } = await teamWithMember();
    const third = await registeredClient(server.url);
    expect((await accept(third, (await invite(owner, team.id, emailOf(third))).token)).status).toBe(200);

    expect((await adminAccount.client.delete(`/api/admin/users/${third.user.id}`)).status).toBe(200);
    expect(await (await owner.client.get('/api/user/team')).json()).toMatchObject({ memberCount: 2 });

    expect((await adminAccount.client.delete(`/api/admin/users/${owner.user.id}`)).status).toBe(200);
    expect((await (await member.client.get('/api/user')).json()).teamId).toBeNull();
    expect(await itemsMentioning(server, [team.id])).toEqual([]);
  });
});
