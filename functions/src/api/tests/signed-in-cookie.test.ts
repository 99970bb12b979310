// The readable signed-in marker lives and dies with the session (the web app skips GET /api/user without
// it): set at sign-in with the session's expiry, cleared at logout and when the session is gone, given back
// to a live session that lacks it, and never enough to be signed in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { solvedAltcha } from '../../testing/altcha';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const setCookie = (res: Response, name: string) =>
  res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
const expiry = (line: string | undefined) => /Expires=([^;]+)/i.exec(line ?? '')?.[1];

describe('the signed-in marker', () => {
  it('is set readable at sign-in, with the session cookie’s expiry', async () => {
    const { username, password } = await registeredClient(server.url);
    const c = new HttpClient(server.url);
    const res = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) });
    expect(res.status).toBe(200);
    const marker = setCookie(res, 'csp_signed_in');
    expect(marker).toMatch(/^csp_signed_in=1;/);
    expect(marker).not.toMatch(/HttpOnly/i);
    expect(marker).toMatch(/Path=\//);
    expect(expiry(marker)).toBeDefined();
    expect(expiry(marker)).toBe(expiry(setCookie(res, 'csp_session')));
  });

  it('is set at registration and cleared with the session at logout', async () => {
    const { client } = await registeredClient(server.url);
    expect(client.cookies.get('csp_signed_in')).toBe('1');
    const res = await client.post('/api/logout');
    expect(res.status).toBeLessThan(300);
    expect(setCookie(res, 'csp_signed_in')).toMatch(/Max-Age=0/i);
    expect(client.cookies.has('csp_signed_in')).toBe(false);
  });

  it('comes back on the next request of a live session that lacks it', async () => {
    const { client } = await registeredClient(server.url);
    client.cookies.delete('csp_signed_in');
    const res = await client.get('/api/user');
    expect(res.status).toBe(200);
    expect(setCookie(res, 'csp_signed_in')).toMatch(/^csp_signed_in=1;/);
    // Once it is there, requests do not set it again.
    expect(setCookie(await client.get('/api/user'), 'csp_signed_in')).toBeUndefined();
  });

  it('alone signs nobody in, and is cleared when no live session stands behind it', async () => {
    const forged = new HttpClient(server.url);
    forged.cookies.set('csp_signed_in', '1');
    const res = await forged.get('/api/user');
    expect(res.status).toBe(401);
    expect(setCookie(res, 'csp_signed_in')).toMatch(/Max-Age=0/i);

    const { client } = await registeredClient(server.url);
    client.cookies.set('csp_session', 'not-a-token');
    const stale = await client.get('/api/user');
    expect(stale.status).toBe(401);
    expect(setCookie(stale, 'csp_signed_in')).toMatch(/Max-Age=0/i);
  });
});
