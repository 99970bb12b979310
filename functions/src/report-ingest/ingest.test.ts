// The report path over HTTP on DynamoDB Local: the endpoint's formats and refusals, noise, the queue and
// consumer, the owner API (windows, ownership, deleting), sampling and the double-delivery guard.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../local/server';
import { createLogger } from '../logger';
import { reportKey } from '../store/keys';
import { registeredClient, startTestServer } from '../testing/api-server';
import type { HttpClient } from '../testing/http-client';
import { until } from '../testing/reports';
import { sqsRecord } from '../testing/sqs-events';
import { createReportConsumer } from './consumer';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const SITE = 'https://www.example.com';

async function ownerWithDomain(isActive = true) {
  const owner = await registeredClient(server.url);
  const res = await owner.client.post('/api/domains', { name: 'Shop', url: SITE, isActive });
  expect(res.status).toBe(201);
  const domain = (await res.json()) as { id: string; uuid: string };
  return { ...owner, domain };
}

/** Posts as a browser would: no cookies, its own content type. */
function send(
  uuid: string,
  body: unknown,
  contentType = 'application/csp-report',
  extra: Record<string, string> = {},
) {
  return fetch(`${server.url}/api/uri-report?domain=${uuid}`, {
    method: 'POST',
    headers: { 'content-type': contentType, 'user-agent': 'TestBrowser/1.0', ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const legacy = (over: Record<string, unknown> = {}) => ({
  'csp-report': {
    'document-uri': `${SITE}/checkout`,
    'violated-directive': 'script-src-elem',
    'blocked-uri': 'https://cdn.example.net/pay.js',
    'line-number': '14',
    'column-number': '2',
    'status-code': '200',
    'original-policy': "script-src 'self'; report-uri /api/uri-report",
    ...over,
  },
});

async function list(client: HttpClient, domainId: string, query = '') {
  await server.reportQueue.idle();
  const res = await client.get(`/api/domains/${domainId}/uri-reports${query}`);
  expect(res.status).toBe(200);
  return res.json();
}

describe('the report endpoint', () => {
  it('accepts report-uri and Reporting API bodies, string numbers becoming integers, and lists them', async () => {
    const { client, domain } = await ownerWithDomain();
    const pre = await fetch(`${server.url}/api/uri-report?domain=${domain.uuid}`, {
      method: 'OPTIONS',
      headers: {
        origin: SITE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');

    const one = await send(domain.uuid, legacy());
    expect(one.status).toBe(204);
    expect(one.headers.get('access-control-allow-origin')).toBe('*');
    expect(
      (
        await send(
          domain.uuid,
          legacy({ 'blocked-uri': 'https://cdn.example.net/other.js' }),
          'application/json',
        )
      ).status,
    ).toBe(204);
    const batch = await send(
      domain.uuid,
      [
        {
          type: 'csp-violation',
          age: 10,
          url: `${SITE}/`,
          user_agent: 'Chrome/147',
          body: {
            documentURL: `${SITE}/`,
            blockedURL: 'inline',
            effectiveDirective: 'script-src-elem',
            sample: '<img src=x onerror=alert(1)>',
            lineNumber: '5',
            columnNumber: 1,
            disposition: 'enforce',
          },
        },
        { type: 'deprecation', age: 0, url: `${SITE}/`, body: {} },
      ],
      'application/reports+json',
    );
    expect(batch.status).toBe(204);

    const body = await list(client, domain.id);
    expect(body.total).toBe(3);
    expect(body.stored).toBe(3);
    expect(body.days).toBe(7);
    expect(body.reports).toHaveLength(3);
    const pay = body.reports.find((r: { blockedUri: string }) => r.blockedUri.endsWith('pay.js'));
    expect(pay).toMatchObject({
      domainUuid: domain.uuid,
      documentUri: `${SITE}/checkout`,
      violatedDirective: 'script-src-elem',
      lineNumber: 14,
      columnNumber: 2,
      statusCode: 200,
      userAgent: 'TestBrowser/1.0',
      clientIp: '127.0.0.0',
      originalPolicy: "script-src 'self'; report-uri /api/uri-report",
    });
    const inline = body.reports.find((r: { blockedUri: string }) => r.blockedUri === 'inline');
    expect(inline).toMatchObject({
      scriptSample: '<img src=x onerror=alert(1)>',
      lineNumber: 5,
      userAgent: 'Chrome/147',
    });
    // Both reports carry the same policy: one stored copy, referenced by hash.
    expect(pay.originalPolicyHash).toBeTruthy();
    expect(body.counts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          directive: 'script-src-elem',
          source: 'https://cdn.example.net',
          count: 2,
        }),
        expect.objectContaining({ directive: 'script-src-elem', source: 'inline', count: 1 }),
      ]),
    );
    expect(body.hourly).toHaveLength(7 * 24);
    expect(body.hourly.at(-1).count).toBe(3);
    expect(body.dropped).toEqual({ 'other-type': 1 });

    // Raw reports expire after 30 days (DynamoDB TTL).
    const item = await server.deps.db.doc.send(
      new GetCommand({ TableName: server.deps.db.table, Key: reportKey(pay.id) }),
    );
    const ttl = item.Item!.expiresAt as number;
    expect(ttl - Date.parse(pay.reportedAt) / 1000).toBeGreaterThan(29.9 * 86400);
    expect(ttl - Date.parse(pay.reportedAt) / 1000).toBeLessThanOrEqual(30 * 86400);
  });

  it('refuses bad input with a clear message and writes nothing', async () => {
    const { client, domain } = await ownerWithDomain();
    const inactive = await ownerWithDomain(false);
    const cases: [Response, number, RegExp][] = [
      [await send(domain.uuid, legacy(), 'text/plain'), 415, /application\/csp-report/],
      [
        await fetch(`${server.url}/api/uri-report`, {
          method: 'POST',
          headers: { 'content-type': 'application/csp-report' },
          body: JSON.stringify(legacy()),
        }),
        400,
        /domain query parameter is required/,
      ],
      [await send('not-a-uuid', legacy()), 400, /must be a domain uuid/],
      [await send('00000000-0000-4000-8000-000000000000', legacy()), 404, /Unknown domain/],
      [await send(inactive.domain.uuid, legacy()), 404, /Unknown domain/],
      [await send(domain.uuid, '{"csp-report": {'), 400, /Malformed JSON/],
      [
        await send(domain.uuid, { 'csp-report': { 'violated-directive': 'img-src' } }),
        400,
        /document-uri is required/,
      ],
      [await send(domain.uuid, legacy({ 'script-sample': 'x'.repeat(70 * 1024) })), 413, /64 KB/],
      [
        await send(
          domain.uuid,
          JSON.stringify([{ type: 'x', body: 'y'.repeat(260 * 1024) }]),
          'application/reports+json',
        ),
        413,
        /256 KB/,
      ],
      [await fetch(`${server.url}/api/uri-report?domain=${domain.uuid}`), 405, /Method not allowed/],
    ];
    for (const [res, status, message] of cases) {
      expect(res.status).toBe(status);
      expect(((await res.json()) as { message: string }).message).toMatch(message);
    }
    // A Reporting API batch up to 256 KB is fine.
    const big = Array.from({ length: 100 }, (_, i) => ({
      type: 'csp-violation',
      age: 0,
      url: `${SITE}/`,
      body: {
        documentURL: `${SITE}/p${i}`,
        blockedURL: `https://img${i}.example.org/a.png`,
        effectiveDirective: 'img-src',
        sample: 'z'.repeat(1500),
      },
    }));
    expect(JSON.stringify(big).length).toBeGreaterThan(64 * 1024);
    expect((await send(domain.uuid, big, 'application/reports+json')).status).toBe(204);
    const body = await list(client, domain.id);
    expect(body.total).toBe(100);
    expect((await list(inactive.client, inactive.domain.id)).total).toBe(0);
  });

  it('drops and counts extension sources, other sites and exact repeats from one client', async () => {
    const { client, domain } = await ownerWithDomain();
    for (const blocked of [
      'chrome-extension',
      'moz-extension://abc/x.js',
      'safari-web-extension://x',
      'webkit-masked-url://hidden/',
    ]) {
      expect((await send(domain.uuid, legacy({ 'blocked-uri': blocked }))).status).toBe(204);
    }
    await send(
      domain.uuid,
      legacy({ 'source-file': 'chrome-extension://abc/content.js', 'blocked-uri': 'inline' }),
    );
    await send(domain.uuid, legacy({ 'document-uri': 'https://copycat.example.org/' }));
    await send(domain.uuid, legacy());
    await send(domain.uuid, legacy());
    await send(domain.uuid, legacy());
    // Dropped counts ride on the domain's next accepted report (or go alone once 30 s old).
    await send(
      domain.uuid,
      legacy({ 'blocked-uri': 'https://fonts.example.org/f.woff2', 'violated-directive': 'font-src' }),
    );
    const body = await list(client, domain.id);
    expect(body.total).toBe(2);
    expect(body.dropped).toEqual({ extension: 5, offsite: 1, repeat: 2 });
  });

  it('limits requests per client (429 with Retry-After)', async () => {
    const limited = await startTestServer({ env: { REPORT_CLIENT_PER_MINUTE: '3' } });
    try {
      const owner = await registeredClient(limited.url);
      const domain = (await (await owner.client.post('/api/domains', { name: 'S', url: SITE })).json()) as {
        uuid: string;
      };
      const post = () =>
        fetch(`${limited.url}/api/uri-report?domain=${domain.uuid}`, {
          method: 'POST',
          headers: { 'content-type': 'application/csp-report' },
          body: JSON.stringify(legacy({ 'blocked-uri': `https://x${Math.random()}.example.net/` })),
        });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await post()).status);
      expect(statuses).toEqual([204, 204, 204, 429]);
      const res = await post();
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await res.json()) as { message: string }).message).toBe('Too many reports from this client');
    } finally {
      await limited.close();
    }
  });
});

describe('the owner API', () => {
  it('is for the owner only: others get 404, without a session 401', async () => {
    const { client, domain } = await ownerWithDomain();
    await send(domain.uuid, legacy());
    const { id } = (await list(client, domain.id)).reports[0];
    const other = await registeredClient(server.url);
    for (const res of [
      await other.client.get(`/api/domains/${domain.id}/uri-reports`),
      await other.client.get(`/api/domains/${domain.id}/report-suggestions`),
      await other.client.delete(`/api/domains/${domain.id}/uri-reports`),
      await other.client.delete(`/api/uri-reports/${id}`),
    ]) {
      expect(res.status).toBe(404);
    }
    const anonymous = await fetch(`${server.url}/api/domains/${domain.id}/uri-reports`);
    expect(anonymous.status).toBe(401);
    expect((await list(client, domain.id)).total).toBe(1);
    expect((await client.get(`/api/domains/${domain.id}/uri-reports?days=2`)).status).toBe(400);
    expect((await client.get(`/api/domains/${domain.id}/uri-reports?cursor=abc`)).status).toBe(400);
  });

  it('deletes one report and clears all, counts included', async () => {
    const { client, domain } = await ownerWithDomain();
    await send(domain.uuid, legacy());
    await send(domain.uuid, legacy({ 'blocked-uri': 'https://ads.example.org/a.js' }));
    const before = await list(client, domain.id);
    expect(before.total).toBe(2);
    const del = await client.delete(`/api/uri-reports/${before.reports[0].id}`);
    expect(del.status).toBe(200);
    const after = await list(client, domain.id);
    expect(after.total).toBe(1);
    expect(after.reports).toHaveLength(1);
    expect(after.counts).toHaveLength(1);
    expect((await client.delete(`/api/uri-reports/${before.reports[0].id}`)).status).toBe(404);
    const clear = await client.delete(`/api/domains/${domain.id}/uri-reports`);
    expect(clear.status).toBe(202);
    expect(await clear.json()).toMatchObject({ state: 'running', phase: 'reports' });
    const done = await until(
      async () => (await (await client.get(`/api/domains/${domain.id}/uri-reports/clear`)).json()).job,
      (job) => job.state === 'done',
    );
    // The report, its stored policy, its counter and hour (the deleted one's counter is gone already).
    expect(done).toMatchObject({ state: 'done', phase: 'done' });
    expect(done.deleted).toBeGreaterThanOrEqual(3);
    const empty = await list(client, domain.id);
    expect(empty).toMatchObject({ total: 0, stored: 0, reports: [], counts: [] });
  });

  it('pages through a window newest first, and the windows are 1, 3 and 7 days', async () => {
    const { client, domain } = await ownerWithDomain();
    const consume = createReportConsumer({ db: server.deps.db, logger: createLogger('silent') });
    const daysAgo = (d: number) => new Date(Date.now() - d * 86400_000).toISOString();
    const event = (reports: { at: string; blocked: string }[]): SQSEvent => ({
      Records: reports.map((r, i) =>
        sqsRecord(
          JSON.stringify({
            domainId: domain.id,
            domainUuid: domain.uuid,
            receivedAt: r.at,
            clientIp: '127.0.0.0',
            reports: [
              {
                documentUri: `${SITE}/`,
                blockedUri: r.blocked,
                violatedDirective: 'img-src',
                reportedAt: r.at,
              },
            ],
            dropped: {},
          }),
          { messageId: `m-${domain.id}-${r.blocked}-${i}`, sentAt: Date.parse(r.at) },
        ),
      ),
    });
    await consume(
      event([
        { at: daysAgo(0.01), blocked: 'https://a.example.org/1.png' },
        { at: daysAgo(0.02), blocked: 'https://a.example.org/2.png' },
        { at: daysAgo(2), blocked: 'https://b.example.org/x.png' },
        { at: daysAgo(5), blocked: 'https://c.example.org/x.png' },
        { at: daysAgo(9), blocked: 'https://d.example.org/x.png' },
      ]),
    );
    expect((await list(client, domain.id, '?days=1')).total).toBe(2);
    expect((await list(client, domain.id, '?days=3')).total).toBe(3);
    const week = await list(client, domain.id, '?days=7&limit=2');
    expect(week.total).toBe(4);
    expect(week.reports.map((r: { blockedUri: string }) => r.blockedUri)).toEqual([
      'https://a.example.org/1.png',
      'https://a.example.org/2.png',
    ]);
    const next = await list(client, domain.id, `?days=7&limit=2&cursor=${week.nextCursor}`);
    expect(next.reports.map((r: { blockedUri: string }) => r.blockedUri)).toEqual([
      'https://b.example.org/x.png',
      'https://c.example.org/x.png',
    ]);
    expect(
      next.nextCursor === null ||
        (await list(client, domain.id, `?days=7&limit=2&cursor=${next.nextCursor}`)).reports.length === 0,
    ).toBe(true);
    expect(week.counts.map((g: { source: string }) => g.source).sort()).toEqual([
      'https://a.example.org',
      'https://b.example.org',
      'https://c.example.org',
    ]);
    expect(week.counts.find((g: { source: string }) => g.source === 'https://a.example.org').count).toBe(2);
  });
});
