// API tokens over HTTP on DynamoDB Local: created in a signed-in session, used with Authorization: Bearer on
// the routes their scopes allow and refused everywhere else (admin, account changes, 2FA, token
// management), with no cookie and no CSRF origin, per-token rate limit, revocation and expiry said so, and
// nothing in the table from which the token could be read back.

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { API_TOKEN_HEADER } from '@csp/shared/http/edge-headers';
import { API_TOKEN_PREFIX } from '@csp/shared/schemas/api-token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenHash } from '../../auth/api-token';
import type { LocalServer } from '../../local/server';
import { claimAnalysis, completeAnalysis } from '../../store/analysis-runs';
import { apiTokenKey } from '../../store/keys';
import { updateUserFields } from '../../store/users';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { itemsMentioning } from '../../testing/user-data';

let server: LocalServer;
let owner: Awaited<ReturnType<typeof registeredClient>>;
let domainId: string;

beforeAll(async () => {
  server = await startTestServer({
    crawlHandler: () => async () => ({ batchItemFailures: [] }),
    env: { API_TOKEN_PER_MINUTE: '40' },
  });
  owner = await registeredClient(server.url);
  const domain = await owner.client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com' });
  expect(domain.status).toBe(201);
  domainId = (await domain.json()).id;
}, 60_000);
afterAll(() => server?.close());

async function newToken(scopes: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await owner.client.post('/api/user/api-tokens', {
    name: `t ${scopes.join(' ')}`,
    scopes,
    ...extra,
  });
  expect(res.status).toBe(201);
  return (await res.json()).token as string;
}

/** A client with no cookie and no Origin: a pipeline's curl. */
const pipeline = (token: string) => {
  const client = new HttpClient(server.url, null);
  const auth = { authorization: `Bearer ${token}` };
  return {
    get: (path: string) => client.get(path, auth),
    post: (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      client.post(path, body, { ...auth, ...headers }),
    put: (path: string, body?: unknown) => client.put(path, body, auth),
    patch: (path: string, body?: unknown) => client.patch(path, body, auth),
    delete: (path: string) => client.delete(path, auth),
  };
};

describe('creating and listing', () => {
  it('shows the value once, lists the token by name, scopes, hint and dates, and stores only a hash', async () => {
    const res = await owner.client.post('/api/user/api-tokens', {
      name: 'CI deploy',
      scopes: ['read', 'read'],
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created.token).toMatch(new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{42}$`));
    expect(created).toMatchObject({ name: 'CI deploy', scopes: ['read'], lastUsedAt: null });
    // 90 days by default.
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(90 * 86_400_000);

    const list = await (await owner.client.get('/api/user/api-tokens')).json();
    const listed = list.find((t: { id: string }) => t.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      name: 'CI deploy',
      scopes: ['read'],
      hint: `${created.token.slice(0, 9)}…`,
      createdAt: created.createdAt,
      lastUsedAt: null,
      expiresAt: created.expiresAt,
    });
    expect(JSON.stringify(list)).not.toContain(created.token);
    // The table holds the hash, never the value.
    expect(await itemsMentioning(server, [created.token])).toEqual([]);
    expect(await itemsMentioning(server, [apiTokenHash(created.token)])).toHaveLength(1);

    // Used: the list says when.
    expect((await pipeline(created.token).get('/api/domains')).status).toBe(200);
    const after = await (await owner.client.get('/api/user/api-tokens')).json();
    expect(after.find((t: { id: string }) => t.id === created.id).lastUsedAt).not.toBeNull();
  });

  it('refuses bad input with a clear message and creates nothing', async () => {
    const before = (await (await owner.client.get('/api/user/api-tokens')).json()).length;
    for (const body of [
      { name: '', scopes: ['read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['read'], expiresInDays: 0 },
      { name: 'x', scopes: ['read'], extra: true },
    ]) {
      const res = await owner.client.post('/api/user/api-tokens', body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBeTruthy();
    }
    expect((await (await owner.client.get('/api/user/api-tokens')).json()).length).toBe(before);
  });
});

describe('using a token', () => {
  it('reads with read, and is refused writes its scopes do not name', async () => {
    const reader = pipeline(await newToken(['read']));
    expect((await reader.get('/api/user')).status).toBe(200);
    expect((await reader.get(`/api/domains/${domainId}`)).status).toBe(200);
    expect((await reader.get(`/api/domains/${domainId}/analyses`)).status).toBe(200);
    const start = await reader.post('/api/csp-analyses', { domainId, crawlRequest: {} });
    expect(start.status).toBe(403);
    expect((await start.json()).message).toBe("This API token lacks the 'analyses:write' scope");
  });

  it('behind CloudFront the token arrives in the header the viewer-request function moves it to', async () => {
    const token = await newToken(['read']);
    const client = new HttpClient(server.url, null);
    expect((await client.get('/api/user', { [API_TOKEN_HEADER]: token })).status).toBe(200);
    const write = await client.post(
      '/api/csp-analyses',
      { domainId, crawlRequest: {} },
      { [API_TOKEN_HEADER]: token },
    );
    expect(write.status).toBe(403);
    // Its last character changed (to 'y' when it is already 'x': the same token would be accepted).
    const changed = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
    const wrong = await client.get('/api/user', { [API_TOKEN_HEADER]: changed });
    expect(wrong.status).toBe(401);
  });

  it('starts an analysis with analyses:write and saves a configuration with configurations:write', async () => {
    const runner = pipeline(await newToken(['read', 'analyses:write']));
    const start = await runner.post('/api/csp-analyses', { domainId, crawlRequest: {} });
    expect(start.status).toBe(201);
    const analysisId = (await start.json()).id;
    expect((await runner.get(`/api/csp/analyze/${analysisId}`)).status).toBe(200);
    // The crawl (not under test here) finishes it, so it can be a configuration's base.
    await claimAnalysis(server.deps.db, analysisId, 'run-1', 60_000);
    await completeAnalysis(server.deps.db, analysisId, 'run-1', {
      cspRules: { 'default-src': ["'self'"] },
      resourceStats: { totalResources: 1, uniqueDomains: 1, securityIssues: 0 },
      errors: [],
      totalPages: 1,
    });
    expect((await runner.post('/api/csp-configurations', {})).status).toBe(403);

    const editor = pipeline(await newToken(['configurations:write']));
    const saved = await editor.post('/api/csp-configurations', {
      domainId,
      baseAnalysisId: analysisId,
      name: 'From CI',
      cspRules: { 'default-src': ["'self'"] },
    });
    expect(saved.status).toBe(201);
    // Reading back needs read.
    expect((await editor.get(`/api/domains/${domainId}/csp-configurations`)).status).toBe(403);
  });

  it('is never usable on admin routes, account changes, 2FA, teams, token management or sign-out', async () => {
    const all = pipeline(await newToken(['read', 'analyses:write', 'configurations:write']));
    const refused = [
      all.get('/api/admin/users'),
      all.patch('/api/user/profile', { firstName: 'X' }),
      all.patch('/api/user/password', { currentPassword: owner.password, newPassword: 'another long pass' }),
      all.post('/api/user/2fa/setup'),
      all.get('/api/user/2fa/recovery-codes'),
      all.get('/api/user/api-tokens'),
      all.post('/api/user/api-tokens', { name: 'more', scopes: ['read'] }),
      all.post('/api/teams', { name: 'T' }),
      all.post('/api/logout'),
      all.delete(`/api/domains/${domainId}`),
      all.get('/api/achievements'),
    ];
    for (const res of await Promise.all(refused)) {
      expect(res.status).toBe(403);
      expect((await res.json()).message).toBe('API tokens cannot be used for this request; sign in instead');
    }
    expect((await owner.client.get(`/api/domains/${domainId}`)).status).toBe(200);
  });

  it('needs no CSRF origin, and a cookie beside it counts for nothing', async () => {
    const reader = await newToken(['read']);
    // A foreign Origin: a token request is not a browser's forged request.
    const runner = pipeline(await newToken(['analyses:write']));
    const foreign = await runner.post(
      '/api/csp/analyze',
      { url: 'https://x.example.com' },
      { origin: 'https://evil.test' },
    );
    expect(foreign.status).not.toBe(403);
    // The same foreign origin with only the cookie is refused, as before.
    const cookieOnly = await owner.client.post(
      '/api/csp/analyze',
      { url: 'https://x.example.com' },
      { origin: 'https://evil.test' },
    );
    expect(cookieOnly.status).toBe(403);
    // The signed-in cookie with a read token: the request is the token's, so no write.
    const both = await owner.client.post(
      '/api/csp-analyses',
      { domainId, crawlRequest: {} },
      { authorization: `Bearer ${reader}` },
    );
    expect(both.status).toBe(403);
  });

  it("reaches only its user's objects: another user's domain is not found", async () => {
    const other = await registeredClient(server.url);
    const theirs = await other.client.post('/api/domains', {
      name: 'Theirs',
      url: 'https://theirs.example.com',
    });
    const theirId = (await theirs.json()).id;
    const reader = pipeline(await newToken(['read', 'analyses:write']));
    expect((await reader.get(`/api/domains/${theirId}`)).status).toBe(404);
    expect((await reader.post('/api/csp-analyses', { domainId: theirId, crawlRequest: {} })).status).toBe(
      404,
    );
  });
});

describe('refusals that say why', () => {
  it('a malformed token, a revoked one and an expired one are 401s with their reason; Basic is not ours', async () => {
    const token = await newToken(['read']);
    const bad = await pipeline(`${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`).get('/api/domains');
    expect(bad.status).toBe(401);
    expect((await bad.json()).message).toBe('Invalid API token');

    const basic = await new HttpClient(server.url, null).get('/api/domains', {
      authorization: 'Basic dXNlcjpwYXNz',
    });
    expect(basic.status).toBe(401);
    expect((await basic.json()).message).toBe('Unauthorized');

    const list = await (await owner.client.get('/api/user/api-tokens')).json();
    const id = list.find((t: { hint: string }) => token.startsWith(t.hint.slice(0, -1))).id;
    expect((await owner.client.delete(`/api/user/api-tokens/${id}`)).status).toBe(200);
    const revoked = await pipeline(token).get('/api/domains');
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).message).toBe('Invalid or revoked API token');
    expect((await owner.client.delete(`/api/user/api-tokens/${id}`)).status).toBe(404);

    const expiring = await newToken(['read'], { expiresInDays: 1 });
    await server.deps.db.doc.send(
      new UpdateCommand({
        TableName: server.deps.db.table,
        Key: apiTokenKey(apiTokenHash(expiring)),
        UpdateExpression: 'SET expiresOn = :past',
        ExpressionAttributeValues: { ':past': '2026-01-02T00:00:00.000Z' },
      }),
    );
    const expired = await pipeline(expiring).get('/api/domains');
    expect(expired.status).toBe(401);
    expect((await expired.json()).message).toBe('API token expired on 2026-01-02');
  });

  it("another user's token cannot be revoked by id", async () => {
    const other = await registeredClient(server.url);
    const res = await other.client.post('/api/user/api-tokens', { name: 'theirs', scopes: ['read'] });
    const { id, token } = await res.json();
    expect((await owner.client.delete(`/api/user/api-tokens/${id}`)).status).toBe(404);
    expect((await pipeline(token).get('/api/domains')).status).toBe(200);
  });

  it('each token has its own rate limit', async () => {
    const busy = pipeline(await newToken(['read']));
    const calm = pipeline(await newToken(['read']));
    const answers = [];
    for (let i = 0; i < 41; i++) answers.push((await busy.get('/api/domains')).status);
    expect(answers.slice(0, 40).every((s) => s === 200)).toBe(true);
    expect(answers[40]).toBe(429);
    expect((await calm.get('/api/domains')).status).toBe(200);
  });
});

describe('an account that goes', () => {
  it('takes its tokens with it, and an admin token cannot be used for admin routes', async () => {
    const gone = await registeredClient(server.url);
    const res = await gone.client.post('/api/user/api-tokens', { name: 'ci', scopes: ['read'] });
    const { token } = await res.json();
    const admin = await registeredClient(server.url);
    await updateUserFields(server.deps.db, admin.user.id, { role: 'admin' });
    const adminToken = (
      await (await admin.client.post('/api/user/api-tokens', { name: 'a', scopes: ['read'] })).json()
    ).token;
    expect((await pipeline(adminToken).get('/api/admin/users')).status).toBe(403);

    expect((await admin.client.delete(`/api/admin/users/${gone.user.id}`)).status).toBe(200);
    expect(await itemsMentioning(server, [apiTokenHash(token)])).toEqual([]);
    expect((await pipeline(token).get('/api/domains')).status).toBe(401);
  });
});
