// Profile, password and two-factor authentication over HTTP against DynamoDB Local.
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { getUserByUsername } from '../../store/users';
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

async function signIn(username: string, password: string, extra: Record<string, string> = {}) {
  const c = new HttpClient(server.url);
  const res = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c), ...extra });
  return { c, res };
}

describe('profile', () => {
  it('updates names and email, and refuses an email another account has', async () => {
    const a = await registeredClient(server.url);
    const b = await registeredClient(server.url);
    const res = await a.client.patch('/api/user/profile', {
      firstName: 'Katherine',
      email: 'kj@example.test',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      firstName: 'Katherine',
      lastName: 'Lovelace',
      email: 'kj@example.test',
    });
    const taken = await b.client.patch('/api/user/profile', { email: 'KJ@example.test' });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toBe('Email already registered');
    const bad = await b.client.patch('/api/user/profile', { email: 'nope' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe('Please enter a valid email');
  });
});

describe('password change', () => {
  it('checks the rules, then revokes every other session but keeps this one', async () => {
    const { client, username, password } = await registeredClient(server.url);
    const other = await signIn(username, password);
    expect(other.res.status).toBe(200);
    const mismatch = await client.patch('/api/user/password', {
      currentPassword: password,
      newPassword: 'brand-new-1',
      confirmPassword: 'brand-new-2',
    });
    expect(mismatch.status).toBe(400);
    expect((await mismatch.json()).issues).toEqual([
      { path: 'confirmPassword', message: "Passwords don't match" },
    ]);
    const wrong = await client.patch('/api/user/password', {
      currentPassword: 'not-it',
      newPassword: 'brand-new-1',
      confirmPassword: 'brand-new-1',
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe('Current password is incorrect');
    const ok = await client.patch('/api/user/password', {
      currentPassword: password,
      newPassword: 'brand-new-1',
      confirmPassword: 'brand-new-1',
    });
    expect(ok.status).toBe(200);
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await other.c.get('/api/user')).status).toBe(401);
    expect((await signIn(username, password)).res.status).toBe(401);
    expect((await signIn(username, 'brand-new-1')).res.status).toBe(200);
  });
});

describe('two-factor authentication', () => {
  it('sets up with a QR code we render, enables with a code, then asks for a code at sign-in', async () => {
    const { client, username, password } = await registeredClient(server.url);
    const setup = await client.post('/api/user/2fa/setup');
    expect(setup.status).toBe(200);
    const { qrCodeUrl, secret } = await setup.json();
    expect(qrCodeUrl).toMatch(/^data:image\/png;base64,/);
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const stored = await getUserByUsername(server.deps.db, username);
    // Encrypted at rest: the stored value is not the secret.
    expect(stored?.twoFactorSecret).toMatch(/^v1\./);
    expect(stored?.twoFactorSecret).not.toContain(secret);

    expect((await client.post('/api/user/2fa/verify', { token: '000000' })).status).toBe(400);
    const code = await generate({ secret });
    const enabled = await client.post('/api/user/2fa/verify', { token: code });
    expect(enabled.status).toBe(200);
    expect((await enabled.json()).twoFactorEnabled).toBe(true);

    const first = await signIn(username, password);
    expect(first.res.status).toBe(401);
    expect(await first.res.json()).toEqual({ message: 'Two-factor code required', twoFactorRequired: true });
    // The second step needs no new proof-of-work; a used code is refused, a fresh one accepted.
    const replay = await first.c.post('/api/login', { username, password, totp: code });
    expect(replay.status).toBe(401);
    const later = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const second = await first.c.post('/api/login', { username, password, totp: later });
    expect(second.status).toBe(200);
    expect((await first.c.get('/api/user')).status).toBe(200);

    const disabled = await first.c.post('/api/user/2fa/disable');
    expect((await disabled.json()).twoFactorEnabled).toBe(false);
    expect((await signIn(username, password)).res.status).toBe(200);
  });
});
