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
});
