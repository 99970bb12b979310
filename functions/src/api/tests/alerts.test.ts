// Alerts over HTTP on DynamoDB Local, delivered for real: a webhook receiver and an SMTP server on loopback
// get what "Send test" and a raised alert send; the receiver checks each signature as the README tells
// receivers to (and a tampered body fails it); one cause raised again is counted, not sent again; a receiver
// that fails is tried again on the retry schedule; a private address is refused where private targets are.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_RETRY_DELAYS_MS } from '@csp/shared/alerts/webhook-payload';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue, raiseAndQueue } from '../../alerts/deliver';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../../alerts/webhook-signature';
import type { LocalServer } from '../../local/server';
import { dueDeliveries } from '../../store/alerts';
import { domainAlertsPartition } from '../../store/keys';
import { queryTable } from '../../store/query';
import { registeredClient, startTestServer } from '../../testing/api-server';

interface Received {
  body: string;
  signature: string | undefined;
}

let server: LocalServer;
let smtp: SMTPServer;
const mails: string[] = [];
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Answers the receiver gives next (then 200). */
const answers: number[] = [];
let owner: Awaited<ReturnType<typeof registeredClient>>;
let domainId: string;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      stream.on('end', () => {
        mails.push(text);
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
      received.push({ body, signature: req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined });
      res.statusCode = answers.shift() ?? 200;
      res.end(res.statusCode === 200 ? 'ok' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'CSP Generator <alerts@csp.test>' },
  });
  owner = await registeredClient(server.url);
  const res = await owner.client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com/' });
  domainId = ((await res.json()) as { id: string }).id;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

const alertDeps = () => ({ ...server.deps, log: server.deps.logger, publicUrl: server.url });

describe('alert settings', () => {
  it('defaults to every kind by e-mail, saves a choice, and refuses bad input changing nothing', async () => {
    const first = await owner.client.get(`/api/domains/${domainId}/alert-settings`);
    expect(first.status).toBe(200);
    const defaults = await first.json();
    expect(defaults).toMatchObject({ email: true, pendingDays: 7, webhooks: [] });
    expect(defaults.kinds).toContain('script-changed');
    expect(defaults.kinds).not.toContain('test');

    for (const bad of [
      { kinds: ['no-such-kind'], email: true, pendingDays: 7 },
      { kinds: [], email: true, pendingDays: 0 },
      { kinds: ['test'], email: true, pendingDays: 7 },
      { kinds: [], email: 'yes', pendingDays: 7 },
    ]) {
      const res = await owner.client.put(`/api/domains/${domainId}/alert-settings`, bad);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBeTruthy();
    }
    expect(await (await owner.client.get(`/api/domains/${domainId}/alert-settings`)).json()).toEqual(
      defaults,
    );

    const saved = await owner.client.put(`/api/domains/${domainId}/alert-settings`, {
      kinds: ['script-changed', 'drift', 'drift'],
      email: true,
      pendingDays: 14,
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ kinds: ['script-changed', 'drift'], pendingDays: 14 });
  });

  it("is another user's 404, and a read for nobody signed in is 401", async () => {
    const other = await registeredClient(server.url);
    expect((await other.client.get(`/api/domains/${domainId}/alert-settings`)).status).toBe(404);
    expect((await other.client.post(`/api/domains/${domainId}/alerts/test`)).status).toBe(404);
    expect(
      (await other.client.post(`/api/domains/${domainId}/alert-settings/webhooks`, { url: receiverUrl }))
        .status,
    ).toBe(404);
    const anonymous = await fetch(`${server.url}/api/domains/${domainId}/alerts`);
    expect(anonymous.status).toBe(401);
  });
});

describe('deliveries', () => {
  let secret: string;

  it('adds a webhook with a secret shown once, and "Send test" reaches it signed, and the owner by e-mail', async () => {
    const added = await owner.client.post(`/api/domains/${domainId}/alert-settings/webhooks`, {
      url: receiverUrl,
    });
    expect(added.status).toBe(201);
    const body = await added.json();
    secret = body.secret;
    expect(secret).toMatch(/^whsec_/);
    const listed = await (await owner.client.get(`/api/domains/${domainId}/alert-settings`)).json();
    expect(listed.webhooks).toEqual([
      { id: body.webhook.id, url: receiverUrl, createdAt: expect.any(String), secretHint: secret.slice(-4) },
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret);

    const test = await owner.client.post(`/api/domains/${domainId}/alerts/test`);
    expect(test.status).toBe(200);
    const { results } = await test.json();
    expect(
      results.map((r: { channel: string; delivered: boolean }) => [r.channel, r.delivered]).sort(),
    ).toEqual([
      ['email', true],
      ['webhook', true],
    ]);
    const hook = received.at(-1)!;
    expect(verifyWebhookSignature(secret, hook.body, hook.signature)).toEqual({ valid: true });
    // Slack's incoming webhooks read `text`; other receivers the alert.
    const payload = JSON.parse(hook.body);
    expect(payload.text).toContain('*Test alert* on Shop');
    expect(payload.alert).toMatchObject({
      kind: 'test',
      domainId,
      count: 1,
      link: `${server.url}/domains/${domainId}`,
    });
    // A body changed on the way no longer matches its signature.
    const tampered = hook.body.replace('Test alert', 'Test alarm');
    expect(verifyWebhookSignature(secret, tampered, hook.signature)).toEqual({
      valid: false,
      reason: 'signature does not match',
    });
    expect(mails.at(-1)).toContain('Subject: CSP Generator: Test alert on Shop');
  });

  it('counts one cause raised again instead of sending it again, and lists the alert with its count', async () => {
    const before = received.length;
    const deps = alertDeps();
    const input = {
      domainId,
      domainName: 'Shop',
      kind: 'script-changed' as const,
      cause: 'https://cdn.example.net/app.js',
      summary: 'https://cdn.example.net/app.js changed content',
      path: `/domains/${domainId}#scripts`,
    };
    const now = Date.now();
    expect(await raiseAndQueue(server.deps.db, input, now)).toHaveLength(2);
    expect(await raiseAndQueue(server.deps.db, input, now + 1_000)).toHaveLength(0);
    expect(await raiseAndQueue(server.deps.db, input, now + 2_000)).toHaveLength(0);
    expect(await deliverDue(deps, now + 3_000)).toBe(2);
    expect(received.length).toBe(before + 1);
    expect(JSON.parse(received.at(-1)!.body).alert).toMatchObject({ kind: 'script-changed' });
    // A kind the domain does not alert about is neither counted nor sent.
    expect(
      await raiseAndQueue(server.deps.db, { ...input, kind: 'report-spike', cause: 'x' }, now),
    ).toHaveLength(0);

    const { alerts } = await (await owner.client.get(`/api/domains/${domainId}/alerts`)).json();
    expect(alerts.find((a: { kind: string }) => a.kind === 'script-changed')).toMatchObject({ count: 3 });
  });

  it('tries a failing receiver again on the retry schedule, and lists each delivery with its status', async () => {
    const deps = alertDeps();
    const now = Date.now() + 10_000;
    answers.push(500);
    const [, webhook] = await raiseAndQueue(
      server.deps.db,
      {
        domainId,
        domainName: 'Shop',
        kind: 'drift',
        cause: 'none-served',
        summary: 'The site serves no policy',
        path: `/domains/${domainId}#changes`,
      },
      now,
    );
    expect(webhook?.channel).toBe('webhook');
    expect(await deliverDue(deps, now)).toBe(2);
    let listed = (await (await owner.client.get(`/api/domains/${domainId}/alert-deliveries`)).json())
      .deliveries;
    expect(listed.find((d: { id: string }) => d.id === webhook!.id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatus: 500,
      lastError: 'HTTP 500: receiver is down',
      nextAttemptAt: new Date(now + WEBHOOK_RETRY_DELAYS_MS[0]).toISOString(),
    });
    // Not due before its time; due after it.
    expect(await deliverDue(deps, now + WEBHOOK_RETRY_DELAYS_MS[0] - 1_000)).toBe(0);
    expect(await deliverDue(deps, now + WEBHOOK_RETRY_DELAYS_MS[0] + 1_000)).toBe(1);
    listed = (await (await owner.client.get(`/api/domains/${domainId}/alert-deliveries`)).json()).deliveries;
    expect(listed.find((d: { id: string }) => d.id === webhook!.id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastStatus: 200,
      nextAttemptAt: null,
    });
  });

  it('two senders at once send a delivery once', async () => {
    const deps = alertDeps();
    const before = received.length;
    const now = Date.now() + 20_000;
    await raiseAndQueue(
      server.deps.db,
      { domainId, domainName: 'Shop', kind: 'drift', cause: 'differs', summary: 'x', path: '/' },
      now,
    );
    const [a, b] = await Promise.all([deliverDue(deps, now), deliverDue(deps, now)]);
    expect(a + b).toBe(2);
    expect(received.length).toBe(before + 1);
  });

  it('refuses more than five webhooks, and removes one by id (someone else’s id is 404)', async () => {
    for (let i = 0; i < 4; i++) {
      expect(
        (
          await owner.client.post(`/api/domains/${domainId}/alert-settings/webhooks`, {
            url: `${receiverUrl}?${i}`,
          })
        ).status,
      ).toBe(201);
    }
    const sixth = await owner.client.post(`/api/domains/${domainId}/alert-settings/webhooks`, {
      url: receiverUrl,
    });
    expect(sixth.status).toBe(409);
    expect((await sixth.json()).message).toBe('A domain can have 5 webhooks at most: remove one first');
    const { webhooks } = await (await owner.client.get(`/api/domains/${domainId}/alert-settings`)).json();
    expect(webhooks).toHaveLength(5);
    expect((await owner.client.delete(`/api/domains/${domainId}/alert-settings/webhooks/nope`)).status).toBe(
      404,
    );
    expect(
      (await owner.client.delete(`/api/domains/${domainId}/alert-settings/webhooks/${webhooks[4].id}`))
        .status,
    ).toBe(204);
    const after = await (await owner.client.get(`/api/domains/${domainId}/alert-settings`)).json();
    expect(after.webhooks.map((w: { id: string }) => w.id)).toEqual(
      webhooks.slice(0, 4).map((w: { id: string }) => w.id),
    );
  });
});

describe('team members', () => {
  it('read the alerts but see only where a webhook goes, not its address', async () => {
    const member = await registeredClient(server.url);
    const me = await (await member.client.get('/api/user')).json();
    const team = await (
      await owner.client.post('/api/teams', { name: 'Agency', slug: `agency-${Date.now()}` })
    ).json();
    const invitation = await (
      await owner.client.post(`/api/teams/${team.id}/invitations`, { email: me.email })
    ).json();
    const token = new URL(invitation.link).pathname.split('/').pop();
    expect((await member.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    const seen = await (await member.client.get(`/api/domains/${domainId}/alert-settings`)).json();
    expect(seen.webhooks.length).toBeGreaterThan(0);
    for (const w of seen.webhooks) expect(w.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…/);
    expect(JSON.stringify(seen)).not.toContain('/hook');
    expect((await member.client.post(`/api/domains/${domainId}/alerts/test`)).status).toBe(403);
    expect(
      (
        await member.client.put(`/api/domains/${domainId}/alert-settings`, {
          kinds: [],
          email: false,
          pendingDays: 3,
        })
      ).status,
    ).toBe(403);
  });
});

describe('deleting the domain', () => {
  it('takes its settings, alerts and deliveries with it', async () => {
    expect((await queryTable(server.deps.db, domainAlertsPartition(domainId))).length).toBeGreaterThan(5);
    expect((await owner.client.delete(`/api/domains/${domainId}`)).status).toBe(200);
    expect(await queryTable(server.deps.db, domainAlertsPartition(domainId))).toEqual([]);
    expect(await dueDeliveries(server.deps.db, Date.now() + 86_400_000)).toEqual([]);
  });
});

describe('where private targets are refused (production)', () => {
  it('a webhook on a private address is refused at once, and nothing reaches it', async () => {
    const strict = await startTestServer({ env: { ALLOW_PRIVATE_TARGETS: 'false' } });
    try {
      const user = await registeredClient(strict.url);
      const res = await user.client.post('/api/domains', { name: 'S', url: 'https://s.example.com/' });
      const id = ((await res.json()) as { id: string }).id;
      const before = received.length;
      const added = await user.client.post(`/api/domains/${id}/alert-settings/webhooks`, {
        url: receiverUrl,
      });
      expect(added.status).toBe(400);
      expect((await added.json()).message).toMatch(/^This address cannot receive webhooks: 127\.0\.0\.1/);
      expect((await user.client.get(`/api/domains/${id}/alert-settings`)).status).toBe(200);
      expect((await (await user.client.get(`/api/domains/${id}/alert-settings`)).json()).webhooks).toEqual(
        [],
      );
      expect(received.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
