// Sign-in rate limiting per client address: failures spread over many usernames still add up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { solvedAltcha } from '../../testing/altcha';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { LOGIN_MAX_FAILURES_PER_IP: '3', LOGIN_MAX_FAILURES_PER_USER: '100' },
  });
});
afterAll(async () => {
  await server?.close();
});

describe('sign-in rate limit per client address', () => {
  it('answers 429 once one address has failed too often, whatever the username', async () => {
    const { username, password } = await registeredClient(server.url);
    for (let i = 0; i < 3; i++) {
      const c = new HttpClient(server.url);
      const res = await c.post('/api/login', {
        username: `nobody${i}`,
        password: 'x',
        altcha: await solvedAltcha(c),
      });
      expect(res.status).toBe(401);
    }
    const c = new HttpClient(server.url);
    const res = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) });
    expect(res.status).toBe(429);
    expect((await res.json()).message).toMatch(/Too many failed sign-in attempts/);
  });

  it('counts IPv6 clients by /64: rotating addresses inside it does not reset the limit', async () => {
    // The local server trusts no forwarding header, so this is checked on the function the route uses.
    const { rateLimitSubject } = await import('../../http/client-address');
    expect(rateLimitSubject('2001:db8:1:2:aaaa::1')).toBe(rateLimitSubject('2001:db8:1:2:bbbb::9'));
    expect(rateLimitSubject('2001:db8:1:3::1')).not.toBe(rateLimitSubject('2001:db8:1:2::1'));
  });
});

describe('sign-in rate limit per username, with parallel guesses', () => {
  let limited: LocalServer;
  beforeAll(async () => {
    limited = await startTestServer({
      env: { LOGIN_MAX_FAILURES_PER_USER: '3', LOGIN_MAX_FAILURES_PER_IP: '100' },
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('lets at most the limit of wrong passwords be checked, however many arrive at once', async () => {
    const { username, password } = await registeredClient(limited.url);
    const attempts = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const c = new HttpClient(limited.url);
        const altcha = await solvedAltcha(c);
        return c.post('/api/login', { username, password: 'wrong guess', altcha });
      }),
    );
    const statuses = attempts.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(7);
    // The right password is refused too until the window ends.
    const c = new HttpClient(limited.url);
    expect((await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) })).status).toBe(
      429,
    );
  });

  it('a successful sign-in gives its attempt back', async () => {
    const { username, password } = await registeredClient(limited.url);
    for (let i = 0; i < 5; i++) {
      const c = new HttpClient(limited.url);
      expect((await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) })).status).toBe(
        200,
      );
    }
  });
});
