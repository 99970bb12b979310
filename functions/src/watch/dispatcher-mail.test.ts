// The schedule dispatcher's Lambda entry, invoked as EventBridge Scheduler invokes it (an empty event), sends
// a due alert e-mail through the SMTP server named in the mail secret: the secret is read through the real
// Secrets Manager client from a loopback Secrets Manager (MAIL_SECRET_ARN, as the stack sets it), the mail
// lands on a loopback SMTP server, addressed to the members of the domain's team. DynamoDB Local underneath.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { raiseAndQueue } from '../alerts/deliver';
import { listDeliveries } from '../store/alerts';
import { putContact } from '../store/contacts';
import { createDb, type Db } from '../store/db';
import { createDomain } from '../store/domains';
import { ensureTable } from '../store/table';
import { putTeamAlertSettings } from '../store/team-alerts';

const MAIL_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:CspGenerator-Mail-abc123';
/** A mail secret as the stack makes it, before the operator fills it in. */
const EMPTY_SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:CspGenerator-Mail-empty';
const table = `dispatcher-${randomBytes(4).toString('hex')}`;
let db: Db;
let smtp: SMTPServer;
const mails: { from: string; to: string[]; text: string }[] = [];
let secretsManager: Server;
/** The secret ids the loopback Secrets Manager was asked for. */
const asked: string[] = [];

beforeAll(async () => {
  db = createDb({ table, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          text,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  // Secrets Manager's JSON protocol, GetSecretValue only: what the operator put in the mail secret.
  secretsManager = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const id = (JSON.parse(body) as { SecretId: string }).SecretId;
      asked.push(id);
      const values: Record<string, unknown> = {
        [MAIL_SECRET_ARN]: { smtpUrl, mailFrom: 'CSP Generator <alerts@csp.test>' },
        [EMPTY_SECRET_ARN]: { smtpUrl: '', mailFrom: '' },
      };
      if (req.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue' || !values[id]) {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no such secret' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(
        JSON.stringify({
          ARN: id,
          Name: 'CspGenerator-Mail',
          VersionId: 'v1',
          SecretString: JSON.stringify(values[id]),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => secretsManager.listen(0, '127.0.0.1', resolve));
  delete process.env.SMTP_URL;
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    TABLE_NAME: table,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(secretsManager.address() as AddressInfo).port}`,
    MAIL_SECRET_ARN,
    // No due schedule in this table: nothing is sent to the queue.
    CRAWL_QUEUE_URL: 'http://127.0.0.1:9/000000000000/crawl',
    PUBLIC_URL: 'https://csp.example.test',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    ALTCHA_HMAC_KEY: randomBytes(32).toString('base64url'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  });
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await new Promise<void>((resolve) => secretsManager?.close(() => resolve()));
});

it("the entry mails a team domain's due alert to the team's members through the mail secret's server", async () => {
  const ownerId = `owner-${randomBytes(4).toString('hex')}`;
  const domain = await createDomain(db, ownerId, {
    name: 'Shop',
    url: 'https://shop.example.com/',
    isActive: true,
  });
  await putContact(db, ownerId, 'owner@shop.test');
  await putContact(db, 'member-1', 'member@shop.test');
  await putTeamAlertSettings(
    db,
    { id: 'team-1', ownerId },
    { kinds: ['drift'], pendingDays: 7, recipients: [ownerId, 'member-1'] },
  );
  const queued = await raiseAndQueue(db, {
    domainId: domain.id,
    domainName: domain.name,
    kind: 'drift',
    cause: 'none-served',
    summary: 'The site serves no policy',
    path: `/domains/${domain.id}`,
  });
  expect(queued).toHaveLength(2);

  const { handler } = (await import('./dispatcher-lambda')) as unknown as { handler: () => Promise<unknown> };
  const result = await handler();
  expect(result).toMatchObject({ deliveries: 2 });
  expect(asked).toEqual([MAIL_SECRET_ARN]);
  expect(mails.flatMap((m) => m.to).sort()).toEqual(['member@shop.test', 'owner@shop.test']);
  expect(mails[0]!.from).toBe('alerts@csp.test');
  // Quoted-printable: soft line breaks undone.
  const text = mails[0]!.text.replace(/=\r?\n/g, '');
  expect(text).toContain('Subject: CSP Generator: Served policy differs');
  expect(text).toContain('Served policy differs from the saved configuration on Shop.');
  expect(text).toContain(`https://csp.example.test/domains/${domain.id}`);
  const deliveries = await listDeliveries(db, domain.id);
  expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered']);
});

it('a mail secret still empty sends nothing, and SMTP_URL in the environment wins over the secret', async () => {
  const { mailSettingsLoader } = await import('../aws/mail-settings');
  const defaults = { MAIL_FROM: 'CSP Generator <no-reply@localhost>' };
  expect(await mailSettingsLoader(defaults, EMPTY_SECRET_ARN)()).toEqual(defaults);
  const set = { SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: 'x <x@x.test>' };
  const before = asked.length;
  expect(await mailSettingsLoader(set, MAIL_SECRET_ARN)()).toEqual(set);
  expect(asked.length).toBe(before);
});
