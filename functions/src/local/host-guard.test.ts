// DNS rebinding: a page on evil.example made to resolve to 127.0.0.1 sends Host: evil.example and a
// matching Origin. The local server answers only to the names it serves as.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/api-server';
import type { LocalServer } from './server';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function request(method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('local server host names', () => {
  it('refuses a foreign Host, for reads and for writes with a matching Origin', async () => {
    const evil = `evil.example:${server.port}`;
    const write = await request(
      'POST',
      '/api/login',
      { host: evil, origin: `http://${evil}`, 'content-type': 'application/json' },
      JSON.stringify({ username: 'x', password: 'y' }),
    );
    expect(write.status).toBe(421);
    expect(JSON.parse(write.body).message).toMatch(/does not answer to that host name/);
    expect((await request('GET', '/api/altcha-challenge', { host: evil })).status).toBe(421);
    expect((await request('GET', '/', { host: evil })).status).toBe(421);
  });

  it('answers to the loopback names it serves as', async () => {
    for (const name of ['localhost', '127.0.0.1', '[::1]']) {
      const res = await request('GET', '/api/altcha-challenge', { host: `${name}:${server.port}` });
      expect(res.status, name).toBe(200);
    }
    // And a write from its own origin goes through the CSRF check to the handler (401: no such user).
    const own = `localhost:${server.port}`;
    const login = await request(
      'POST',
      '/api/login',
      { host: own, origin: `http://${own}`, 'content-type': 'application/json' },
      JSON.stringify({ username: 'nobody', password: 'secret123' }),
    );
    expect(login.status).not.toBe(421);
    expect(login.status).not.toBe(403);
  });
});
