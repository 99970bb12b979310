// Sign-in, registration and sessions over HTTP against DynamoDB Local.
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionTokenKey, signSessionToken } from '../../auth/session-token';
import { randomSecrets } from '../../local/secrets';
import type { LocalServer } from '../../local/server';
import { epochSeconds } from '../../store/db';
import { createSession } from '../../store/sessions';
import { getUserByUsername } from '../../store/users';
import { solvedAltcha } from '../../testing/altcha';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
const secrets = randomSecrets();

beforeAll(async () => {
  server = await startTestServer({
    secrets,
    env: { LOGIN_MAX_FAILURES_PER_USER: '3', LOGIN_MAX_FAILURES_PER_IP: '50' },
  });
});
afterAll(async () => {
  await server?.close();
});

const newClient = () => new HttpClient(server.url);
let n = 0;
const uniqueName = () => `u${Date.now().toString(36)}${(n++).toString(36)}`;

async function register(client: HttpClient, body: Record<string, unknown>) {
  return client.post('/api/register', { altcha: await solvedAltcha(client), ...body });
}

describe('registration', () => {
  it('creates the user, signs them in and never returns the hash', async () => {
    const client = newClient();
    const username = uniqueName();
    const res = await register(client, {
      username,
      email: `${username}@x.test`,
      password: 'secret1',
      firstName: 'Grace',
    });
    expect(res.status).toBe(201);
    const user = await res.json();
    expect(user).toMatchObject({
      username,
      email: `${username}@x.test`,
      firstName: 'Grace',
      role: 'user',
      twoFactorEnabled: false,
    });
    expect(JSON.stringify(user)).not.toMatch(/passwordHash|twoFactorSecret|scrypt/);
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect((await me.json()).username).toBe(username);
    const stored = await getUserByUsername(server.deps.db, username);
    expect(stored?.passwordHash).toMatch(/^scrypt\$14\$8\$1\$/);
  });

  it.each([
    [{ username: 'ab', email: 'a@b.test', password: 'secret1' }, 'Username must be at least 3 characters'],
    [{ username: 'abcdef', email: 'a@b.test', password: 'short' }, 'Password must be at least 6 characters'],
    [{ username: 'abcdef', email: 'not-an-email', password: 'secret1' }, 'Please enter a valid email'],
  ])('rejects %o with the spec message', async (body, message) => {
    const res = await register(newClient(), body);
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.message).toBe(message);
    expect(json.issues[0].message).toBe(message);
  });

  it('refuses a duplicate username and a duplicate email with 409', async () => {
    const username = uniqueName();
    expect(
      (await register(newClient(), { username, email: `${username}@x.test`, password: 'secret1' })).status,
    ).toBe(201);
    const sameName = await register(newClient(), {
      username: username.toUpperCase(),
      email: `other${username}@x.test`,
      password: 'secret1',
    });
    expect(sameName.status).toBe(409);
    expect(await sameName.json()).toEqual({
      message: 'Username already taken',
      issues: [{ path: 'username', message: 'Username already taken' }],
    });
    const sameEmail = await register(newClient(), {
      username: `${username}b`,
      email: `${username}@X.test`,
      password: 'secret1',
    });
    expect(sameEmail.status).toBe(409);
    expect((await sameEmail.json()).issues).toEqual([
      { path: 'email', message: 'Please try again with different details.' },
    ]);
  });

  it('lets exactly one of two concurrent registrations of one name win', async () => {
    const username = uniqueName();
    const [a, b] = [newClient(), newClient()];
    const [pa, pb] = await Promise.all([solvedAltcha(a), solvedAltcha(b)]);
    const results = await Promise.all([
      a.post('/api/register', { username, email: `${username}1@x.test`, password: 'secret1', altcha: pa }),
      b.post('/api/register', { username, email: `${username}2@x.test`, password: 'secret1', altcha: pb }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    // The loser left nothing behind: its email is still free.
    const again = await register(newClient(), {
      username: `${username}z`,
      email: `${username}1@x.test`,
      password: 'secret1',
    });
    const again2 = await register(newClient(), {
      username: `${username}y`,
      email: `${username}2@x.test`,
      password: 'secret1',
    });
    expect([again.status, again2.status].sort()).toEqual([201, 409]);
  });
});

describe('proof-of-work', () => {
  it('serves a signed, expiring challenge', async () => {
    const res = await newClient().get('/api/altcha-challenge');
    expect(res.status).toBe(200);
    const ch = await res.json();
    expect(ch.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(ch.parameters.expiresAt).toBeGreaterThan(epochSeconds());
    expect(ch.parameters.expiresAt).toBeLessThanOrEqual(epochSeconds() + 600);
  });

  it('requires a solution, refuses a wrong one and a replayed one', async () => {
    const { username, password } = await registeredClient(server.url);
    const c = newClient();
    const missing = await c.post('/api/login', { username, password });
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toMatch(/verification is required/);

    const garbage = await c.post('/api/login', { username, password, altcha: 'bm90IGpzb24=' });
    expect(garbage.status).toBe(400);

    const payload = await solvedAltcha(c);
    const decoded = JSON.parse(Buffer.from(payload, 'base64').toString());
    decoded.solution.derivedKey = decoded.solution.derivedKey.replace(/^./, (ch: string) =>
      ch === '0' ? '1' : '0',
    );
    const wrong = await c.post('/api/login', {
      username,
      password,
      altcha: Buffer.from(JSON.stringify(decoded)).toString('base64'),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toMatch(/verification failed/);

    expect((await c.post('/api/login', { username, password, altcha: payload })).status).toBe(200);
    const replay = await newClient().post('/api/login', { username, password, altcha: payload });
    expect(replay.status).toBe(400);
    expect((await replay.json()).message).toMatch(/already used/);
  });

  it('refuses an expired challenge, and one whose expiry was changed', async () => {
    const { username, password } = await registeredClient(server.url);
    const challenge = await createChallenge({
      algorithm: 'SHA-256',
      cost: 1,
      deriveKey,
      counter: 50,
      hmacSignatureSecret: secrets.altchaHmacKey,
      hmacKeySignatureSecret: `${secrets.altchaHmacKey}:key`,
      expiresAt: epochSeconds() - 5,
    });
    const solution = await solveChallenge({ challenge, deriveKey });
    const payload = (c: unknown) =>
      Buffer.from(JSON.stringify({ challenge: c, solution })).toString('base64');
    const expired = await newClient().post('/api/login', { username, password, altcha: payload(challenge) });
    expect(expired.status).toBe(400);
    expect((await expired.json()).message).toMatch(/expired/);
    const spliced = {
      ...challenge,
      parameters: { ...challenge.parameters, expiresAt: epochSeconds() + 300 },
    };
    const res = await newClient().post('/api/login', { username, password, altcha: payload(spliced) });
    expect(res.status).toBe(400);
  });
});

describe('login', () => {
  it('signs in, sets a hardened cookie and returns the user', async () => {
    const { username, password } = await registeredClient(server.url);
    const c = newClient();
    const res = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) });
    expect(res.status).toBe(200);
    expect((await res.json()).username).toBe(username);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('csp_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect((await c.get('/api/user')).status).toBe(200);
  });

  it.each([
    [{ username: '', password: 'x' }, 'Username is required'],
    [{ username: 'someone', password: '' }, 'Password is required'],
  ])('validates %o', async (body, message) => {
    const res = await newClient().post('/api/login', body);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
  });

  it('gives the same 401 for an unknown user and a wrong password, in similar time', async () => {
    const { username } = await registeredClient(server.url);
    const attempt = async (name: string) => {
      const c = newClient();
      const altcha = await solvedAltcha(c);
      const t = performance.now();
      const res = await c.post('/api/login', { username: name, password: 'wrong-password', altcha });
      return { res, ms: performance.now() - t };
    };
    // Medians of a few tries each, so one scheduling hiccup on a busy machine does not decide.
    const wrongTries = [];
    const unknownTries = [];
    for (let i = 0; i < 3; i++) {
      wrongTries.push(await attempt(username));
      unknownTries.push(await attempt(`${uniqueName()}nobody`));
    }
    for (const { res } of [...wrongTries, ...unknownTries]) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Invalid username or password' });
    }
    const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[1]!;
    // Both run one scrypt; an unknown user must not answer markedly faster.
    expect(median(unknownTries)).toBeGreaterThan(median(wrongTries) * 0.4);
  });

  it('rate limits repeated failures for a username with 429', async () => {
    const { username, password } = await registeredClient(server.url);
    for (let i = 0; i < 3; i++) {
      const c = newClient();
      const r = await c.post('/api/login', {
        username,
        password: 'nope-nope',
        altcha: await solvedAltcha(c),
      });
      expect(r.status).toBe(401);
    }
    const c = newClient();
    const limited = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) });
    expect(limited.status).toBe(429);
    expect((await limited.json()).message).toMatch(/Too many failed sign-in attempts/);
  });
});

describe('sessions', () => {
  it('logout revokes the session even if the cookie is replayed', async () => {
    const { client } = await registeredClient(server.url);
    const saved = new Map(client.cookies);
    expect((await client.post('/api/logout')).status).toBe(200);
    expect((await client.get('/api/user')).status).toBe(401);
    const replay = newClient();
    for (const [k, v] of saved) replay.cookies.set(k, v);
    const res = await replay.get('/api/user');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthorized' });
  });

  it('refuses a tampered cookie and an expired session', async () => {
    const { client, user } = await registeredClient(server.url);
    const token = client.cookies.get('csp_session')!;
    const tampered = newClient();
    tampered.cookies.set('csp_session', `${token.slice(0, -3)}${token.endsWith('A') ? 'BBB' : 'AAA'}`);
    expect((await tampered.get('/api/user')).status).toBe(401);

    const sid = 'expired-session-id-for-test';
    const past = epochSeconds() - 10;
    await createSession(server.deps.db, { sid, userId: user.id, sess: {}, expiresAt: past });
    const expired = newClient();
    expired.cookies.set(
      'csp_session',
      await signSessionToken(sessionTokenKey(secrets.sessionSecret), sid, epochSeconds() + 3600),
    );
    expect((await expired.get('/api/user')).status).toBe(401);
    const expiredToken = newClient();
    const live = 'live-session-id-for-test';
    await createSession(server.deps.db, {
      sid: live,
      userId: user.id,
      sess: {},
      expiresAt: epochSeconds() + 3600,
    });
    expiredToken.cookies.set(
      'csp_session',
      await signSessionToken(sessionTokenKey(secrets.sessionSecret), live, past),
    );
    expect((await expiredToken.get('/api/user')).status).toBe(401);
  });

  it('gives a new session id at every login', async () => {
    const { client, username, password } = await registeredClient(server.url);
    const before = client.cookies.get('csp_session');
    await client.post('/api/login', { username, password, altcha: await solvedAltcha(client) });
    expect(client.cookies.get('csp_session')).not.toBe(before);
    const old = newClient();
    old.cookies.set('csp_session', before!);
    expect((await old.get('/api/user')).status).toBe(401);
  });
});

describe('request hygiene', () => {
  it('refuses writes from a foreign origin with 403', async () => {
    const { client } = await registeredClient(server.url);
    const res = await client.post(
      '/api/domains',
      { name: 'x', url: 'https://x.test' },
      { origin: 'https://evil.test' },
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'Cross-origin request refused' });
    const site = await client.post(
      '/api/domains',
      { name: 'x', url: 'https://x.test' },
      { origin: undefined as never, 'sec-fetch-site': 'cross-site' },
    );
    expect(site.status).toBe(403);
    expect((await client.get('/api/domains')).status).toBe(200);
    expect(await (await client.get('/api/domains')).json()).toEqual([]);
  });

  it('answers malformed JSON with 400, a form post with 415 and an oversized body with 413', async () => {
    const c = newClient();
    const bad = await c.post('/api/login', '{"username": ');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ message: 'Malformed JSON body' });
    const form = await c.post('/api/login', 'username=a&password=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    const big = await c.post('/api/login', { username: 'a', password: 'x'.repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect((await big.json()).message).toMatch(/too large/);
  });

  it('answers an unknown API path with a JSON 404 and sets the security headers', async () => {
    const res = await newClient().get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Not found' });
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('requires a session on protected endpoints', async () => {
    for (const path of ['/api/user', '/api/domains', '/api/csp-analyses', '/api/achievements']) {
      const res = await newClient().get(path);
      expect(res.status, path).toBe(401);
    }
  });
});
