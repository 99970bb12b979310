// A team's alert settings over HTTP on DynamoDB Local, delivered for real to a webhook receiver and an SMTP
// server on loopback: the owner sets them, a member reads them (403 for a change), an outsider gets 404, bad
// input is 400 and changes nothing; a team domain's alert goes to the team's webhook and members only, a
// domain with its own settings to its own channels only; a member who leaves is mailed no more; a deleted
// team's domains go back to their own; a batch of alerts reads the settings once.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertRoutingOf, deliverDue, raiseAndQueue } from '../../alerts/deliver';
import { watchReports } from '../../alerts/report-watch';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../alerts/webhook-signature';
import type { LocalServer } from '../../local/server';
import type { Db } from '../../store/db';
import { getDomain } from '../../store/domains';
import { deleteUserCascade } from '../../store/user-cascade';
import { getUser } from '../../store/users';
import { registeredClient, startTestServer } from '../../testing/api-server';

type Account = Awaited<ReturnType<typeof registeredClient>>;

interface Hook {
  path: string;
  body: string;
  signature: string | undefined;
}

let server: LocalServer;
let smtp: SMTPServer;
/** Each mail: to whom, and its text. */
const mails: { to: string[]; text: string }[] = [];
let receiver: Server;
let receiverOrigin: string;
const hooks: Hook[] = [];
let owner: Account;
let member: Account;
let outsider: Account;
let teamId: string;
/** A domain that follows the team, and one that keeps its own settings. */
let teamDomain: string;
let ownDomain: string;
let teamSecret: string;
let ownSecret: string;

const emailOf = (a: Account) => `${a.username}@example.test`;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      hooks.push({
        path: req.url ?? '',
        body,
        signature: req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined,
      });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'CSP Generator <alerts@csp.test>' },
  });
  [owner, member, outsider] = await Promise.all([
    registeredClient(server.url),
    registeredClient(server.url),
    registeredClient(server.url),
  ]);
  const team = await owner.client.post('/api/teams', { name: 'Agency', slug: `agency-${Date.now()}` });
  teamId = (await team.json()).id;
  const invited = await (
    await owner.client.post(`/api/teams/${teamId}/invitations`, { email: emailOf(member) })
  ).json();
  const token = new URL(invited.link).pathname.split('/').pop();
  expect((await member.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
  const add = async (name: string) =>
    (await (await owner.client.post('/api/domains', { name, url: `https://${name}.example.com/` })).json())
      .id as string;
  teamDomain = await add('shop');
  ownDomain = await add('blog');
}, 90_000);

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

const alertDeps = () => ({ ...server.deps, log: server.deps.logger, publicUrl: server.url });
const teamAlerts = (a: Account) => a.client.get(`/api/teams/${teamId}/alerts`);
const settingsOf = async (domainId: string) =>
  (await owner.client.get(`/api/domains/${domainId}/alert-settings`)).json();

/** Raises one alert on a domain as the crawl writer would (its settings read once), and sends it. */
async function raiseAndSend(domainId: string, kind: 'script-changed' | 'report-spike', cause: string) {
  const domain = (await getDomain(server.deps.db, domainId))!;
  const now = Date.now();
  const routing = await alertRoutingOf(server.deps.db, domain);
  const queued = await raiseAndQueue(
    server.deps.db,
    {
      domainId,
      domainName: domain.name,
      kind,
      cause,
      summary: `${cause} changed`,
      path: `/domains/${domainId}`,
    },
    now,
    routing,
  );
  await deliverDue(alertDeps(), now + 1_000);
  return queued;
}

describe('who may see and set a team’s alerts', () => {
  it('shows the defaults to the owner and a member, 404 to an outsider, 401 to nobody', async () => {
    const res = await teamAlerts(owner);
    expect(res.status).toBe(200);
    const defaults = await res.json();
    expect(defaults).toMatchObject({
      recipients: [owner.user.id],
      webhooks: [],
      pendingDays: 7,
      saved: false,
    });
    expect(defaults.kinds).toContain('drift');
    expect((await teamAlerts(member)).status).toBe(200);
    expect((await teamAlerts(outsider)).status).toBe(404);
    expect((await fetch(`${server.url}/api/teams/${teamId}/alerts`)).status).toBe(401);
    // Before the team saves settings its domains keep their own.
    expect(await settingsOf(teamDomain)).toMatchObject({
      useTeamSettings: true,
      applies: 'domain',
      team: { id: teamId, name: 'Agency', saved: false },
    });
  });

  it('refuses a member every change with 403 and an outsider with 404, changing nothing', async () => {
    const body = { kinds: ['drift'], pendingDays: 3, recipients: [member.user.id] };
    const hook = { url: `${receiverOrigin}/team` };
    for (const [who, status] of [
      [member, 403],
      [outsider, 404],
    ] as const) {
      expect((await who.client.put(`/api/teams/${teamId}/alerts`, body)).status).toBe(status);
      expect((await who.client.post(`/api/teams/${teamId}/alerts/webhooks`, hook)).status).toBe(status);
      expect((await who.client.post(`/api/teams/${teamId}/alerts/test`)).status).toBe(status);
      expect((await who.client.delete(`/api/teams/${teamId}/alerts/webhooks/x`)).status).toBe(status);
    }
    // A member of the team cannot switch a team domain either.
    const source = await member.client.put(`/api/domains/${teamDomain}/alert-settings/source`, {
      useTeamSettings: false,
    });
    expect(source.status).toBe(403);
    expect((await (await teamAlerts(owner)).json()).saved).toBe(false);
  });

  it('answers bad input with 400 and a clear message, and changes nothing', async () => {
    const before = await (await teamAlerts(owner)).json();
    for (const [bad, message] of [
      [{ kinds: ['no-such-kind'], pendingDays: 7, recipients: [] }, /kinds/],
      [{ kinds: [], pendingDays: 0, recipients: [] }, /pendingDays/],
      [{ kinds: [], pendingDays: 7, recipients: [outsider.user.id] }, /Only members of the team/],
      [{ kinds: [], pendingDays: 7, recipients: [], email: true }, /email/],
      [{ kinds: [], pendingDays: 7 }, /recipients/],
    ] as const) {
      const res = await owner.client.put(`/api/teams/${teamId}/alerts`, bad);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(message);
    }
    const badHook = await owner.client.post(`/api/teams/${teamId}/alerts/webhooks`, { url: 'ftp://x.test/' });
    expect(badHook.status).toBe(400);
    const badSource = await owner.client.put(`/api/domains/${teamDomain}/alert-settings/source`, {
      useTeamSettings: 'no',
    });
    expect(badSource.status).toBe(400);
    expect(await (await teamAlerts(owner)).json()).toEqual(before);
    expect((await settingsOf(teamDomain)).useTeamSettings).toBe(true);
  });
});

describe('where a team domain’s alerts go', () => {
  it('the owner adds a team webhook and saves the settings; the member sees where it goes, not its address', async () => {
    const added = await owner.client.post(`/api/teams/${teamId}/alerts/webhooks`, {
      url: `${receiverOrigin}/team/T0KEN`,
    });
    expect(added.status).toBe(201);
    teamSecret = (await added.json()).secret;
    // Adding a webhook applies nothing yet: only saved settings do.
    expect((await settingsOf(teamDomain)).applies).toBe('domain');
    const saved = await owner.client.put(`/api/teams/${teamId}/alerts`, {
      kinds: ['script-changed', 'drift'],
      pendingDays: 10,
      recipients: [owner.user.id, member.user.id, owner.user.id],
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({
      kinds: ['script-changed', 'drift'],
      recipients: [owner.user.id, member.user.id],
      saved: true,
    });
    const seen = await (await teamAlerts(member)).json();
    expect(seen.webhooks[0].url).toBe(`${receiverOrigin}/…0KEN`);
    expect(JSON.stringify(seen)).not.toContain('T0KEN');

    expect(await settingsOf(teamDomain)).toMatchObject({ applies: 'team', useTeamSettings: true });
    const switched = await owner.client.put(`/api/domains/${ownDomain}/alert-settings/source`, {
      useTeamSettings: false,
    });
    expect(switched.status).toBe(200);
    expect(await switched.json()).toMatchObject({ applies: 'domain', useTeamSettings: false });
    const own = await owner.client.post(`/api/domains/${ownDomain}/alert-settings/webhooks`, {
      url: `${receiverOrigin}/own`,
    });
    ownSecret = (await own.json()).secret;
    // The team domain has a webhook of its own too: unused while it follows the team.
    const shopOwn = await owner.client.post(`/api/domains/${teamDomain}/alert-settings/webhooks`, {
      url: `${receiverOrigin}/shop-own`,
    });
    expect(shopOwn.status).toBe(201);
  });

  it("sends a team domain's alert to the team's webhook, signed, and e-mails the team's members, nothing else", async () => {
    const hooksBefore = hooks.length;
    const mailsBefore = mails.length;
    const queued = await raiseAndSend(teamDomain, 'script-changed', 'https://cdn.example.net/app.js');
    expect(queued.map((d) => d.channel).sort()).toEqual(['email', 'email', 'webhook']);
    const sent = hooks.slice(hooksBefore);
    expect(sent.map((h) => h.path)).toEqual(['/team/T0KEN']);
    expect(verifyWebhookSignature(teamSecret, sent[0]!.body, sent[0]!.signature)).toEqual({ valid: true });
    expect(JSON.parse(sent[0]!.body).alert).toMatchObject({ kind: 'script-changed', domainId: teamDomain });
    const mailed = mails.slice(mailsBefore);
    expect(mailed.flatMap((m) => m.to).sort()).toEqual([emailOf(owner), emailOf(member)].sort());
    expect(mailed[0]!.text).toContain("your team's alert settings");
    // The deliveries are listed with the domain's, marked as the team's.
    const { deliveries } = await (
      await owner.client.get(`/api/domains/${teamDomain}/alert-deliveries`)
    ).json();
    expect(deliveries.filter((d: { viaTeam?: boolean }) => d.viaTeam)).toHaveLength(3);
    expect(deliveries.every((d: { status: string }) => d.status === 'delivered')).toBe(true);

    // A kind the team does not alert about is not sent, though the domain's own settings have it on.
    expect((await settingsOf(teamDomain)).kinds).toContain('report-spike');
    expect(await raiseAndSend(teamDomain, 'report-spike', 'hour')).toEqual([]);
  });

  it('sends a domain with its own settings to its own webhook and its owner only', async () => {
    const hooksBefore = hooks.length;
    const mailsBefore = mails.length;
    await raiseAndSend(ownDomain, 'report-spike', 'hour');
    const sent = hooks.slice(hooksBefore);
    expect(sent.map((h) => h.path)).toEqual(['/own']);
    expect(verifyWebhookSignature(ownSecret, sent[0]!.body, sent[0]!.signature)).toEqual({ valid: true });
    expect(mails.slice(mailsBefore).flatMap((m) => m.to)).toEqual([emailOf(owner)]);
  });

  it('"Send test" reaches every member and webhook of the team at once', async () => {
    const hooksBefore = hooks.length;
    const res = await owner.client.post(`/api/teams/${teamId}/alerts/test`);
    expect(res.status).toBe(200);
    const { results } = await res.json();
    expect(results.map((r: { channel: string; delivered: boolean }) => [r.channel, r.delivered])).toEqual([
      ['email', true],
      ['email', true],
      ['webhook', true],
    ]);
    const hook = hooks.slice(hooksBefore)[0]!;
    expect(verifyWebhookSignature(teamSecret, hook.body, hook.signature)).toEqual({ valid: true });
    expect(JSON.parse(hook.body).alert).toMatchObject({
      kind: 'test',
      link: `${server.url}/settings?tab=team`,
    });
  });

  it('reads the settings once for a batch of alerts', async () => {
    const reads: string[] = [];
    const db = server.deps.db;
    const counting: Db = {
      table: db.table,
      doc: {
        send: (command: { constructor: { name: string } }) => {
          if (/Get|Query/.test(command.constructor.name)) reads.push(command.constructor.name);
          return db.doc.send(command as never);
        },
      } as unknown as Db['doc'],
    };
    const domain = (await getDomain(db, teamDomain))!;
    const group = (hash: string) => ({
      hash,
      directive: 'script-src',
      source: 'inline',
      sample: hash,
      count: 1,
    });
    await watchReports(counting, domain, [group('a'), group('b'), group('c')]);
    expect(reads).toEqual(['BatchGetCommand']);
  });
});

describe('when the team changes', () => {
  it('a member whose account is deleted is taken off the recipients', async () => {
    const leaver = await registeredClient(server.url);
    const invited = await (
      await owner.client.post(`/api/teams/${teamId}/invitations`, { email: emailOf(leaver) })
    ).json();
    const token = new URL(invited.link).pathname.split('/').pop();
    expect((await leaver.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    const before = (await (await teamAlerts(owner)).json()).recipients as string[];
    const saved = await owner.client.put(`/api/teams/${teamId}/alerts`, {
      kinds: ['script-changed', 'drift'],
      pendingDays: 10,
      recipients: [...before, leaver.user.id],
    });
    expect(saved.status).toBe(200);
    const record = (await getUser(server.deps.db, leaver.user.id))!;
    await deleteUserCascade({ ...server.deps, logger: server.deps.logger }, record);
    expect((await (await teamAlerts(owner)).json()).recipients).toEqual(before);
  });

  it('a member removed from the team is mailed its alerts no more', async () => {
    const removed = await owner.client.delete(`/api/teams/${teamId}/members/${member.user.id}`);
    expect(removed.status).toBe(200);
    expect((await (await teamAlerts(owner)).json()).recipients).toEqual([owner.user.id]);
    const mailsBefore = mails.length;
    await raiseAndSend(teamDomain, 'script-changed', 'https://cdn.example.net/other.js');
    expect(mails.slice(mailsBefore).flatMap((m) => m.to)).toEqual([emailOf(owner)]);
  });

  it("a deleted team's domains go back to their own settings", async () => {
    expect((await owner.client.delete(`/api/teams/${teamId}`)).status).toBe(200);
    expect(await settingsOf(teamDomain)).toMatchObject({ applies: 'domain', team: null });
    const hooksBefore = hooks.length;
    const mailsBefore = mails.length;
    await raiseAndSend(teamDomain, 'report-spike', 'after the team');
    expect(hooks.slice(hooksBefore).map((h) => h.path)).toEqual(['/shop-own']);
    expect(mails.slice(mailsBefore).flatMap((m) => m.to)).toEqual([emailOf(owner)]);
  });
});
