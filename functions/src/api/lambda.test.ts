// The Lambda entry, driven with Function URL (payload v2) events on DynamoDB Local.
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { randomSecrets } from '../local/secrets';
import { createDb } from '../store/db';
import { ensureTable } from '../store/table';

const secrets = randomSecrets();
const table = `lambda-${randomBytes(4).toString('hex')}`;
let handler: (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;

function v2Event(
  method: string,
  path: string,
  opts: { body?: unknown; cookies?: string[]; headers?: Record<string, string> } = {},
): APIGatewayProxyEventV2 {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    cookies: opts.cookies,
    headers: {
      // What the Function URL sees behind CloudFront: its own host, and the viewer's in x-csp-viewer-host.
      host: FUNCTION_URL_HOST,
      'x-forwarded-proto': 'https',
      'x-origin-verify': ORIGIN_SECRET,
      // Written by CloudFront's viewer-request function (infra/lib/viewer-address.ts).
      'x-csp-viewer-ip': '198.51.100.23',
      'x-csp-viewer-host': 'csp.example.test',
      ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
      ...opts.headers,
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: FUNCTION_URL_HOST,
      domainPrefix: 'abc123',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' },
      requestId: randomBytes(8).toString('hex'),
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}

const context = {} as Context;
const FUNCTION_URL_HOST = 'abc123.lambda-url.us-east-1.on.aws';
const SIGN_IN_BUDGET = 6;
const ORIGIN_SECRET = 'origin-verify-secret-for-tests';

beforeAll(async () => {
  const endpoint = inject('dynamoEndpoint');
  await ensureTable(createDb({ table, endpoint }));
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: table,
    SESSION_SECRET: secrets.sessionSecret,
    ALTCHA_HMAC_KEY: secrets.altchaHmacKey,
    TOTP_ENCRYPTION_KEY: secrets.totpEncryptionKey,
    CRAWL_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/crawl',
    REPORT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/reports',
    ORIGIN_VERIFY: ORIGIN_SECRET,
    ALTCHA_MAX_NUMBER: '2000',
    API_SIGN_IN_PER_MINUTE: String(SIGN_IN_BUDGET),
    SCRYPT_LOG_N: '14',
    LOG_LEVEL: 'silent',
  });
  // Unset in AWS: the public origin is the viewer's host (http/viewer-host.ts).
  delete process.env.PUBLIC_URL;
  ({ handler } = (await import('./lambda')) as unknown as { handler: typeof handler });
});

describe('API Lambda entry (HTTP API v2 events)', () => {
  it('serves a challenge, registers over https with a __Host- cookie, and reads the session back', async () => {
    const challenge = await handler(v2Event('GET', '/api/altcha-challenge'), context);
    expect(challenge.statusCode).toBe(200);
    const { solveChallenge } = await import('altcha-lib');
    const { deriveKey } = await import('altcha-lib/algorithms/sha');
    const ch = JSON.parse(challenge.body!);
    const solution = await solveChallenge({ challenge: ch, deriveKey });
    const altcha = Buffer.from(JSON.stringify({ challenge: ch, solution })).toString('base64');

    const registered = await handler(
      v2Event('POST', '/api/register', {
        body: { username: 'lambda_user', email: 'lambda@example.test', password: 'secret12', altcha },
        headers: { origin: 'https://csp.example.test' },
      }),
      context,
    );
    expect(registered.statusCode).toBe(201);
    const setCookie = registered.cookies ?? [];
    const session = setCookie.find((c) => c.startsWith('__Host-csp_session='));
    expect(session).toMatch(/Secure/);
    expect(session).toMatch(/HttpOnly/);
    expect(registered.headers?.['strict-transport-security']).toMatch(/max-age=/);

    const me = await handler(v2Event('GET', '/api/user', { cookies: [session!.split(';')[0]!] }), context);
    expect(me.statusCode).toBe(200);
    // The request id is the one Lambda gave the request.
    const event = v2Event('GET', '/api/altcha-challenge');
    expect((await handler(event, context)).headers?.['x-request-id']).toBe(event.requestContext.requestId);
    expect(JSON.parse(me.body!).username).toBe('lambda_user');
  });

  it('gzips an answer of 1 KB and more for a viewer that accepts it (base64 to the Function URL), and only then', async () => {
    const zipped = await handler(
      v2Event('GET', '/api/openapi.json', { headers: { 'accept-encoding': 'gzip, deflate, br' } }),
      context,
    );
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers?.['content-encoding']).toBe('gzip');
    expect(zipped.isBase64Encoded).toBe(true);
    const body = gunzipSync(Buffer.from(zipped.body!, 'base64')).toString('utf8');
    expect(JSON.parse(body).openapi).toMatch(/^3\./);
    expect(zipped.body!.length).toBeLessThan(body.length / 2);

    const plain = await handler(v2Event('GET', '/api/openapi.json'), context);
    expect(plain.headers?.['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body!)).toEqual(JSON.parse(body));
    // A small answer is not worth it.
    const small = await handler(
      v2Event('GET', '/api/altcha-challenge', { headers: { 'accept-encoding': 'gzip' } }),
      context,
    );
    expect(small.headers?.['content-encoding']).toBeUndefined();
  });

  it('refuses a request that went around CloudFront (no or wrong origin-verify header)', async () => {
    for (const value of [undefined, 'wrong-secret-of-other-length', ORIGIN_SECRET.replace(/.$/, 'X')]) {
      const event = v2Event('GET', '/api/altcha-challenge');
      if (value === undefined) delete event.headers['x-origin-verify'];
      else event.headers['x-origin-verify'] = value;
      const res = await handler(event, context);
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body!)).toEqual({ message: 'Direct access to the API is not allowed' });
    }
  });

  it('refuses a foreign origin and an anonymous read', async () => {
    const foreign = await handler(
      v2Event('POST', '/api/logout', { body: {}, headers: { origin: 'https://evil.example' } }),
      context,
    );
    expect(foreign.statusCode).toBe(403);
    // The public origin comes from CloudFront's viewer host: without it, the product's own origin is foreign.
    const noViewerHost = v2Event('POST', '/api/logout', {
      body: {},
      headers: { origin: 'https://csp.example.test' },
    });
    delete noViewerHost.headers['x-csp-viewer-host'];
    expect((await handler(noViewerHost, context)).statusCode).toBe(403);
    const anon = await handler(v2Event('GET', '/api/domains'), context);
    expect(anon.statusCode).toBe(401);
    expect(JSON.parse(anon.body!)).toEqual({ message: 'Unauthorized' });
  });

  it('counts per-client budgets by the viewer address CloudFront wrote, not by the edge that forwarded', async () => {
    // Every event comes from the same CloudFront address (requestContext sourceIp); viewers differ.
    const from = (ip: string) =>
      handler(v2Event('GET', '/api/altcha-challenge', { headers: { 'x-csp-viewer-ip': ip } }), context);
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_BUDGET + 2; i++) statuses.push((await from('192.0.2.66')).statusCode!);
    expect(statuses.slice(0, SIGN_IN_BUDGET)).toEqual(new Array(SIGN_IN_BUDGET).fill(200));
    expect(statuses.slice(SIGN_IN_BUDGET)).toEqual([429, 429]);
    const refused = await from('192.0.2.66');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await from('192.0.2.67')).statusCode).toBe(200);
  });
});
