// Profile, password and two-factor authentication over HTTP against DynamoDB Local.
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

async function signIn(username: string, password: string, extra: Record<string, string> = {}) {
  const c = new HttpClient(server.url);
  const res = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c), ...extra });
  return { c, res };
}

describe('profile', () => {
  it('updates names and email (with the current password), and refuses an email another account has', async () => {
    const a = await registeredClient(server.url);
    const b = await registeredClient(server.url);
    const withoutPassword = await a.client.patch('/api/user/profile', { email: 'kj@example.test' });
    expect(withoutPassword.status).toBe(400);
    // The refusal names the field it concerns, so the form shows it there.
    expect(await withoutPassword.json()).toEqual({
      message: 'Enter your current password to change your email',
      issues: [{ path: 'currentPassword', message: 'Enter your current password to change your email' }],
    });
    const wrongPassword = await a.client.patch('/api/user/profile', {
      email: 'kj@example.test',
      currentPassword: 'not it',
    });
    expect((await wrongPassword.json()).issues).toEqual([
      { path: 'currentPassword', message: 'Current password is incorrect' },
    ]);
    const res = await a.client.patch('/api/user/profile', {
      firstName: 'Katherine',
      email: 'kj@example.test',
      currentPassword: a.password,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      firstName: 'Katherine',
      lastName: 'Lovelace',
      email: 'kj@example.test',
    });
    // Names alone need no password.
    expect((await a.client.patch('/api/user/profile', { lastName: 'Johnson' })).status).toBe(200);
    // Whether an address has an account is not told: the same generic message as at registration.
    const taken = await b.client.patch('/api/user/profile', {
      email: 'KJ@example.test',
      currentPassword: b.password,
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toBe('Please try again with different details.');
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
