// Two-factor authentication over HTTP with codes from an independent implementation (oathtool, or RFC 6238
// checked against its test vectors): setup, enabling (which ends the other sessions), the second sign-in
// step (single use, replay refused, at most 5 wrong codes per pending sign-in and per user, also when they
// arrive in parallel) and disabling (which needs the password or a code).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { getUserByUsername } from '../../store/users';
import { solvedAltcha } from '../../testing/altcha';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { codesFrom, totpCode } from '../../testing/totp-codes';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
  console.log(`2FA codes from ${codesFrom}`);
});
afterAll(async () => {
  await server?.close();
});

async function signIn(username: string, password: string) {
  const c = new HttpClient(server.url);
  const res = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) });
  return { c, res };
}

const now = () => Date.now() / 1000;
/** A code of another time step than `code` (the next one), so it is not a replay. */
const nextCode = (secret: string, step: number) => totpCode(secret, now() + 30 * step);

async function enabledAccount() {
  const account = await registeredClient(server.url);
  const setup = await (await account.client.post('/api/user/2fa/setup')).json();
  const enabledAt = now();
  const enabledWith = totpCode(setup.secret, enabledAt);
  const enabled = await account.client.post('/api/user/2fa/verify', { token: enabledWith });
  expect(enabled.status).toBe(200);
  return { ...account, secret: setup.secret as string, enabledWith, enabledAt };
}

describe('two-factor authentication', () => {
  it('sets up with a QR code we render and an encrypted secret, and enables with a real code', async () => {
    const { client, username } = await registeredClient(server.url);
    const setup = await client.post('/api/user/2fa/setup');
    expect(setup.status).toBe(200);
    const { qrCodeUrl, secret } = await setup.json();
    expect(qrCodeUrl).toMatch(/^data:image\/png;base64,/);
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const stored = await getUserByUsername(server.deps.db, username);
    expect(stored?.twoFactorSecret).toMatch(/^v1\./);
    expect(stored?.twoFactorSecret).not.toContain(secret);
    const wrong = await client.post('/api/user/2fa/verify', { token: '000000' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe('Invalid verification code. Please try again.');
    const enabled = await client.post('/api/user/2fa/verify', { token: totpCode(secret) });
    expect((await enabled.json()).twoFactorEnabled).toBe(true);
  });

  it('enabling it ends the other sessions of the account, not this one', async () => {
    const { client, username, password } = await registeredClient(server.url);
    const other = await signIn(username, password);
    expect((await other.c.get('/api/user')).status).toBe(200);
    const { secret } = await (await client.post('/api/user/2fa/setup')).json();
    await client.post('/api/user/2fa/verify', { token: totpCode(secret) });
    expect((await other.c.get('/api/user')).status).toBe(401);
    expect((await client.get('/api/user')).status).toBe(200);
  });

  it('asks for a code at sign-in; the pending sign-in is single use and a used code is refused', async () => {
    const { username, password, secret, enabledWith } = await enabledAccount();
    const first = await signIn(username, password);
    expect(first.res.status).toBe(401);
    expect(await first.res.json()).toEqual({ message: 'Two-factor code required', twoFactorRequired: true });
    // The code used to enable 2FA was burnt: the same step is refused (replay).
    const replay = await first.c.post('/api/login', { username, password, totp: enabledWith });
    expect(replay.status).toBe(401);
    const code = nextCode(secret, 1);
    const ok = await first.c.post('/api/login', { username, password, totp: code });
    expect(ok.status).toBe(200);
    expect((await first.c.get('/api/user')).status).toBe(200);
    // The pending sign-in is gone: its cookie cannot make a second session, even with a fresh code.
    const again = await first.c.post('/api/login', { username, password, totp: nextCode(secret, -1) });
    expect(again.status).toBe(401);
    expect((await again.json()).message).toBe('Your sign-in has expired. Please enter your password again.');
    // A code without a pending sign-in (no first step) gets nowhere either.
    const direct = new HttpClient(server.url);
    expect((await direct.post('/api/login', { username, password, totp: code })).status).toBe(401);
  });

  it('allows at most 5 wrong codes per pending sign-in, also in parallel, then starts over', async () => {
    const { username, password, secret } = await enabledAccount();
    const first = await signIn(username, password);
    const wrong = nextCode(secret, 1) === '123456' ? '654321' : '123456';
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => first.c.post('/api/login', { username, password, totp: wrong })),
    );
    const bodies = await Promise.all(answers.map((r) => r.json()));
    const counted = bodies.filter((b) => b.message === 'Invalid verification code. Please try again.');
    expect(counted.length).toBeLessThanOrEqual(5);
    expect(answers.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    // Even the right code is refused now: the pending sign-in is over.
    const late = await first.c.post('/api/login', { username, password, totp: nextCode(secret, 1) });
    expect([401, 429]).toContain(late.status);
    expect((await first.c.get('/api/user')).status).toBe(401);
  });

  it('limits wrong codes per user across pending sign-ins', async () => {
    const { username, password, secret } = await enabledAccount();
    const wrong = nextCode(secret, 1) === '111111' ? '222222' : '111111';
    let refused = 0;
    for (let i = 0; i < 3; i++) {
      const s = await signIn(username, password);
      for (let j = 0; j < 3; j++) {
        const res = await s.c.post('/api/login', { username, password, totp: wrong });
        if (res.status === 429) refused += 1;
      }
    }
    // 9 wrong codes over three sign-ins: the sixth and later are refused before they are checked.
    expect(refused).toBeGreaterThanOrEqual(3);
    const s = await signIn(username, password);
    const right = await s.c.post('/api/login', { username, password, totp: nextCode(secret, 1) });
    expect(right.status).toBe(429);
  });

  it('turning it off needs the password or a current code', async () => {
    const { client, username, password, secret, enabledAt } = await enabledAccount();
    const none = await client.post('/api/user/2fa/disable', {});
    expect(none.status).toBe(400);
    expect((await none.json()).message).toBe('Enter your password or a code from your authenticator app');
    const badPassword = await client.post('/api/user/2fa/disable', { password: 'wrong one' });
    expect((await badPassword.json()).message).toBe('Current password is incorrect');
    const badCode = await client.post('/api/user/2fa/disable', { token: '000000' });
    expect((await badCode.json()).message).toBe('Invalid verification code. Please try again.');
    expect((await getUserByUsername(server.deps.db, username))?.twoFactorEnabled).toBe(true);
    const offAt = now() + 30;
    const off = await client.post('/api/user/2fa/disable', { token: totpCode(secret, offAt) });
    expect(off.status).toBe(200);
    expect((await off.json()).twoFactorEnabled).toBe(false);
    expect((await signIn(username, password)).res.status).toBe(200);
    // And with the password, after enabling it again.
    const again = await (await client.post('/api/user/2fa/setup')).json();
    // A time step is used once per account (whatever the secret): a step within tolerance not used yet.
    const used = [enabledAt, offAt].map((t) => Math.floor(t / 30));
    const at = [-30, 0, 30].map((d) => now() + d).find((t) => !used.includes(Math.floor(t / 30)))!;
    const reenabled = await client.post('/api/user/2fa/verify', { token: totpCode(again.secret, at) });
    expect(reenabled.status).toBe(200);
    expect((await client.post('/api/user/2fa/disable', { password })).status).toBe(200);
  });
});
