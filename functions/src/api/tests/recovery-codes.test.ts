// Two-factor recovery codes over HTTP: 10 codes returned once when 2FA is enabled (only their hashes
// stored), each signing in once at the code step instead of a TOTP code (reuse refused, also when one code is
// sent from several sign-ins at once), the count left, regeneration behind the password (the old codes stop
// working), removal with 2FA; and Cancel during setup, which leaves 2FA off and the setup unusable.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { getUserByUsername } from '../../store/users';
import { solvedAltcha } from '../../testing/altcha';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { totpCode } from '../../testing/totp-codes';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const USED = 'This recovery code is not valid or was already used.';

/** The first step of a sign-in: password and proof-of-work; with 2FA on it answers 401 and a pending cookie. */
async function firstStep(username: string, password: string) {
  const c = new HttpClient(server.url);
  const res = await c.post('/api/login', { username, password, altcha: await solvedAltcha(c) });
  return { c, res };
}

async function signInWithCode(username: string, password: string, recoveryCode: string) {
  const { c, res } = await firstStep(username, password);
  expect(res.status).toBe(401);
  expect((await res.json()).twoFactorRequired).toBe(true);
  return { c, res: await c.post('/api/login', { username, password, recoveryCode }) };
}

async function enabledAccount() {
  const account = await registeredClient(server.url);
  const setup = await (await account.client.post('/api/user/2fa/setup')).json();
  const enabled = await account.client.post('/api/user/2fa/verify', { token: totpCode(setup.secret) });
  expect(enabled.status).toBe(200);
  const body = await enabled.json();
  return { ...account, secret: setup.secret as string, codes: body.recoveryCodes as string[], body };
}

const left = async (client: HttpClient) =>
  (await (await client.get('/api/user/2fa/recovery-codes')).json()).left;

describe('recovery codes', () => {
  it('enabling 2FA returns 10 distinct codes, once; only their SHA-256 hashes are stored', async () => {
    const { client, username, codes, body, secret } = await enabledAccount();
    expect(body.twoFactorEnabled).toBe(true);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    const stored = await getUserByUsername(server.deps.db, username);
    const hashes = codes.map((c) => createHash('sha256').update(c.replace(/-/g, '')).digest('hex'));
    expect([...(stored?.recoveryCodes ?? [])].sort()).toEqual(hashes.sort());
    expect(await left(client)).toBe(10);
    // Nothing shows them again: the user, a second verify, a second setup.
    expect(JSON.stringify(await (await client.get('/api/user')).json())).not.toContain(codes[0]!);
    const again = await client.post('/api/user/2fa/verify', {
      token: totpCode(secret, Date.now() / 1000 + 30),
    });
    expect(again.status).toBe(409);
    expect((await client.post('/api/user/2fa/setup')).status).toBe(409);
  });

  it('a code signs in once, however it is typed; reusing it is refused and counts as a wrong code', async () => {
    const { client, username, password, codes } = await enabledAccount();
    const typed = ` ${codes[3]!.replace(/-/g, '').toLowerCase()} `;
    const ok = await signInWithCode(username, password, typed);
    expect(ok.res.status).toBe(200);
    expect((await ok.c.get('/api/user')).status).toBe(200);
    expect(await left(client)).toBe(9);

    const reuse = await signInWithCode(username, password, codes[3]!);
    expect(reuse.res.status).toBe(401);
    expect(await reuse.res.json()).toEqual({ message: USED, twoFactorRequired: true });
    expect((await reuse.c.get('/api/user')).status).toBe(401);
    // The pending sign-in is still there, for a right code.
    const next = await reuse.c.post('/api/login', { username, password, recoveryCode: codes[4]! });
    expect(next.status).toBe(200);
    expect(await left(client)).toBe(8);

    // What cannot be a code is refused before anything is checked.
    const { c } = await firstStep(username, password);
    const malformed = await c.post('/api/login', { username, password, recoveryCode: 'not-a-code' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).message).toBe('Enter a recovery code like XXXX-XXXX-XXXX-XXXX');
  });

  it('one code sent from five sign-ins at once opens exactly one session', async () => {
    const { client, username, password, codes } = await enabledAccount();
    const steps = await Promise.all(Array.from({ length: 5 }, () => firstStep(username, password)));
    for (const s of steps) expect(s.res.status).toBe(401);
    const answers = await Promise.all(
      steps.map((s) => s.c.post('/api/login', { username, password, recoveryCode: codes[0]! })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const sessions = await Promise.all(steps.map(async (s) => (await s.c.get('/api/user')).status));
    expect(sessions.filter((s) => s === 200)).toHaveLength(1);
    expect(await left(client)).toBe(9);
  });

  it('wrong recovery codes share the wrong-code limit of the pending sign-in', async () => {
    const { username, password, codes } = await enabledAccount();
    const { c } = await firstStep(username, password);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push(
        (await c.post('/api/login', { username, password, recoveryCode: '0000-0000-0000-0000' })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // The pending sign-in is over (and the account's wrong codes are used up): even a right code is refused.
    const late = await c.post('/api/login', { username, password, recoveryCode: codes[0]! });
    expect([401, 429]).toContain(late.status);
    expect((await c.get('/api/user')).status).toBe(401);
  });

  it('regenerating needs the password and makes the old codes stop working', async () => {
    const { client, username, password, codes } = await enabledAccount();
    await signInWithCode(username, password, codes[0]!);
    expect(await left(client)).toBe(9);
    const none = await client.post('/api/user/2fa/recovery-codes', {});
    expect(none.status).toBe(400);
    expect((await none.json()).message).toBe('Enter your password');
    const wrong = await client.post('/api/user/2fa/recovery-codes', { password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe('Current password is incorrect');
    expect(await left(client)).toBe(9);

    const res = await client.post('/api/user/2fa/recovery-codes', { password });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const fresh = (await res.json()).recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    expect(await left(client)).toBe(10);
    const old = await signInWithCode(username, password, codes[1]!);
    expect(old.res.status).toBe(401);
    expect((await old.res.json()).message).toBe(USED);
    expect((await signInWithCode(username, password, fresh[1]!)).res.status).toBe(200);
  });

  it('turning 2FA off removes the codes; turning it on again gives new ones', async () => {
    const { client, username, password, codes, secret } = await enabledAccount();
    expect((await client.post('/api/user/2fa/disable', { password })).status).toBe(200);
    expect((await getUserByUsername(server.deps.db, username))?.recoveryCodes).toBeUndefined();
    expect(await (await client.get('/api/user/2fa/recovery-codes')).json()).toEqual({
      enabled: false,
      left: 0,
    });
    expect((await client.post('/api/user/2fa/recovery-codes', { password })).status).toBe(409);
    // A code of the old set is no second factor for anything now; sign-in needs only the password.
    expect((await firstStep(username, password)).res.status).toBe(200);

    const setup = await (await client.post('/api/user/2fa/setup')).json();
    expect(setup.secret).not.toBe(secret);
    const on = await client.post('/api/user/2fa/verify', {
      token: totpCode(setup.secret, Date.now() / 1000 + 30),
    });
    const fresh = (await on.json()).recoveryCodes as string[];
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
    expect((await signInWithCode(username, password, codes[0]!)).res.status).toBe(401);
  });

  it('Cancel during setup leaves 2FA off and the abandoned setup cannot be completed', async () => {
    const { client, username, password } = await registeredClient(server.url);
    const { secret } = await (await client.post('/api/user/2fa/setup')).json();
    const cancel = await client.post('/api/user/2fa/cancel');
    expect(cancel.status).toBe(200);
    const stored = await getUserByUsername(server.deps.db, username);
    expect(stored?.twoFactorEnabled).toBe(false);
    expect(stored?.twoFactorSecret).toBeNull();
    const verify = await client.post('/api/user/2fa/verify', { token: totpCode(secret) });
    expect(verify.status).toBe(400);
    expect((await verify.json()).message).toBe('Start the two-factor setup first');
    expect((await firstStep(username, password)).res.status).toBe(200);
    expect(await (await client.get('/api/user/2fa/recovery-codes')).json()).toEqual({
      enabled: false,
      left: 0,
    });

    // With 2FA on there is no setup to cancel: the secret stays.
    const enabled = await enabledAccount();
    const refused = await enabled.client.post('/api/user/2fa/cancel');
    expect(refused.status).toBe(409);
    expect((await getUserByUsername(server.deps.db, enabled.username))?.twoFactorSecret).toMatch(/^v1\./);
  });
});
