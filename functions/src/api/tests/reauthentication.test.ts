// Re-authentication of a signed-in user over HTTP on DynamoDB Local: the current password of a password
// change and of an email change, and the password or code that turns 2FA off, take an attempt from the
// account's sign-in counter before they are checked. Parallel wrong guesses: at most 5 checked, then 429,
// even for the right secret, until the window ends; the same counter as sign-in's, both ways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../auth/password';
import type { LocalServer } from '../../local/server';
import { getUserByUsername } from '../../store/users';
import { solvedAltcha } from '../../testing/altcha';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { totpCode } from '../../testing/totp-codes';

const WINDOW = 15 * 60;
const TOO_MANY_PASSWORDS =
  'Too many wrong passwords for this account. Please wait up to 15 minutes and try again.';
const TOO_MANY_CODES = 'Too many wrong codes for this account. Please wait up to 15 minutes and try again.';
const WRONG_PASSWORD = 'Current password is incorrect';
const WRONG_CODE = 'Invalid verification code. Please try again.';

let server: LocalServer;
/** Warning lines the server logged (its logger writes JSON lines to stderr, in this process). */
const warnings: Record<string, unknown>[] = [];
const writeStderr = process.stderr.write.bind(process.stderr);
beforeAll(async () => {
  // The defaults: 5 wrong passwords (or codes) per account per 15 minutes.
  server = await startTestServer({ env: { LOG_LEVEL: 'warn' } });
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = String(chunk);
    if (text.startsWith('{')) {
      for (const line of text.trim().split('\n')) {
        try {
          warnings.push(JSON.parse(line));
        } catch {
          writeStderr(`${line}\n`);
        }
      }
      return true;
    }
    return writeStderr(chunk, ...rest);
  }) as typeof process.stderr.write;
});
afterAll(async () => {
  process.stderr.write = writeStderr;
  await server?.close();
});

/** Waits for the next fixed window when this one ends within `seconds`: each test needs one window. */
async function awayFromWindowEdge(windowSeconds: number, seconds = 60) {
  const left = windowSeconds - ((Date.now() / 1000) % windowSeconds);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
}

async function signIn(url: string, username: string, password: string) {
  const c = new HttpClient(url);
  return c.post('/api/login', { username, password, altcha: await solvedAltcha(c) });
}

/** Sends `n` requests at once; the statuses and messages of the answers. */
async function inParallel(n: number, send: () => Promise<Response>) {
  const answers = await Promise.all(Array.from({ length: n }, send));
  return Promise.all(
    answers.map(async (r) => ({
      status: r.status,
      message: ((await r.json()) as { message: string }).message,
    })),
  );
}

const count = (answers: { status: number; message: string }[], status: number, message: string) =>
  answers.filter((a) => a.status === status && a.message === message).length;

async function enabledAccount() {
  const account = await registeredClient(server.url);
  const setup = await (await account.client.post('/api/user/2fa/setup')).json();
  const enabled = await account.client.post('/api/user/2fa/verify', { token: totpCode(setup.secret) });
  expect(enabled.status).toBe(200);
  return { ...account, secret: setup.secret as string };
}

describe('re-authentication is limited like sign-in', () => {
  it('password change: 8 parallel wrong current passwords, at most 5 checked; then even the right one is refused', async () => {
    await awayFromWindowEdge(WINDOW);
    const { client, username, password } = await registeredClient(server.url);
    const change = (currentPassword: string) =>
      client.patch('/api/user/password', {
        currentPassword,
        newPassword: 'taken-over-1',
        confirmPassword: 'taken-over-1',
      });
    const answers = await inParallel(8, () => change('guess-1234'));
    const checked = count(answers, 400, WRONG_PASSWORD);
    const refused = count(answers, 429, TOO_MANY_PASSWORDS);
    expect(checked).toBeLessThanOrEqual(5);
    expect(checked + refused).toBe(8);
    expect(refused).toBeGreaterThanOrEqual(3);
    // Had a sixth guess been checked, the counter would not be full: the right password proves it is.
    expect(await change(password).then((r) => r.status)).toBe(429);
    const stored = await getUserByUsername(server.deps.db, username);
    expect(await verifyPassword(password, stored!.passwordHash)).toBe(true);
    // The same counter as sign-in's: the account's sign-in waits for the same window, no longer.
    expect((await signIn(server.url, username, password)).status).toBe(429);
    // Logged, with who and which limit, and no secret.
    const line = warnings.find(
      (w) => w.msg === 'password change refused: too many wrong passwords' && w.userId === stored!.id,
    );
    expect(line).toMatchObject({ level: 'warn', limit: 'login-user' });
    const logged = JSON.stringify(warnings);
    expect(logged).not.toContain('guess-1234');
    expect(logged).not.toContain(password);
    expect(
      warnings.filter((w) => w.msg === 'password change refused: wrong password' && w.userId === stored!.id),
    ).toHaveLength(checked);
  });

  it('email change: 8 parallel wrong current passwords, at most 5 checked; the email stays', async () => {
    await awayFromWindowEdge(WINDOW);
    const { client, username, password } = await registeredClient(server.url);
    const change = (currentPassword: string) =>
      client.patch('/api/user/profile', { email: 'thief@example.test', currentPassword });
    const answers = await inParallel(8, () => change('guess-1234'));
    const checked = count(answers, 400, WRONG_PASSWORD);
    expect(checked).toBeLessThanOrEqual(5);
    expect(count(answers, 429, TOO_MANY_PASSWORDS)).toBe(8 - checked);
    const right = await change(password);
    expect(right.status).toBe(429);
    expect((await right.json()).message).toBe(TOO_MANY_PASSWORDS);
    expect((await getUserByUsername(server.deps.db, username))?.email).toBe(`${username}@example.test`);
    // Names alone need no password, so they are not held up.
    expect((await client.patch('/api/user/profile', { firstName: 'Still' })).status).toBe(200);
  });

  it('2FA disable with a password: 8 parallel wrong ones, at most 5 checked; 2FA stays on', async () => {
    await awayFromWindowEdge(WINDOW);
    const { client, username, password } = await enabledAccount();
    const answers = await inParallel(8, () =>
      client.post('/api/user/2fa/disable', { password: 'guess-1234' }),
    );
    const checked = count(answers, 400, WRONG_PASSWORD);
    expect(checked).toBeLessThanOrEqual(5);
    expect(count(answers, 429, TOO_MANY_PASSWORDS)).toBe(8 - checked);
    expect((await client.post('/api/user/2fa/disable', { password })).status).toBe(429);
    expect((await getUserByUsername(server.deps.db, username))?.twoFactorEnabled).toBe(true);
  });

  it('2FA disable with a code: 8 parallel wrong ones, at most 5 checked; then the right code is refused', async () => {
    await awayFromWindowEdge(WINDOW);
    const { client, username, password, secret } = await enabledAccount();
    const right = totpCode(secret, Date.now() / 1000 + 30);
    const wrong = right === '123456' ? '654321' : '123456';
    const answers = await inParallel(8, () => client.post('/api/user/2fa/disable', { token: wrong }));
    const checked = count(answers, 400, WRONG_CODE);
    expect(checked).toBeLessThanOrEqual(5);
    expect(count(answers, 429, TOO_MANY_CODES)).toBe(8 - checked);
    const late = await client.post('/api/user/2fa/disable', { token: right });
    expect(late.status).toBe(429);
    expect((await late.json()).message).toBe(TOO_MANY_CODES);
    expect((await getUserByUsername(server.deps.db, username))?.twoFactorEnabled).toBe(true);
    // Codes have their own counter (sign-in's code counter): the password still turns it off.
    expect((await client.post('/api/user/2fa/disable', { password })).status).toBe(200);
  });

  it('a right password gives its own attempt back, as at sign-in: it does not wipe earlier failures', async () => {
    await awayFromWindowEdge(WINDOW);
    const { client, password } = await registeredClient(server.url);
    const change = (currentPassword: string, newPassword: string) =>
      client.patch('/api/user/password', { currentPassword, newPassword, confirmPassword: newPassword });
    for (let i = 0; i < 4; i++) expect((await change('guess-1234', 'next-pass-1')).status).toBe(400);
    // Right, five times over: each success gives back the attempt it took.
    let current = password;
    for (let i = 0; i < 5; i++) {
      expect((await change(current, `next-pass-${i}`)).status).toBe(200);
      current = `next-pass-${i}`;
    }
    // The four failures still count: one more wrong guess fills the counter.
    expect((await change('guess-1234', 'x-pass-1')).status).toBe(400);
    expect((await change(current, 'x-pass-2')).status).toBe(429);
  });

  it('failed sign-ins count against re-authentication too (one allowance per account, not per door)', async () => {
    await awayFromWindowEdge(WINDOW);
    const { client, username } = await registeredClient(server.url);
    for (let i = 0; i < 5; i++) expect((await signIn(server.url, username, 'guess-1234')).status).toBe(401);
    const res = await client.patch('/api/user/profile', {
      email: 'x@example.test',
      currentPassword: 'guess-5',
    });
    expect(res.status).toBe(429);
  });
});

describe('the owner is not locked out of sign-in longer than sign-in itself would', () => {
  let short: LocalServer;
  beforeAll(async () => {
    short = await startTestServer({ env: { LOGIN_WINDOW_SECONDS: '10' } });
  });
  afterAll(async () => {
    await short?.close();
  });

  it('a thief spending the attempts blocks the owner until the window ends, then sign-in works', async () => {
    await awayFromWindowEdge(10, 5);
    const { client, username, password } = await registeredClient(short.url);
    const answers = await inParallel(8, () =>
      client.patch('/api/user/password', {
        currentPassword: 'guess-1234',
        newPassword: 'taken-over-1',
        confirmPassword: 'taken-over-1',
      }),
    );
    expect(count(answers, 400, WRONG_PASSWORD)).toBeLessThanOrEqual(5);
    const owner = await signIn(short.url, username, password);
    expect(owner.status).toBe(429);
    // The window (10 s here, 15 minutes by default) ends; so does the refusal.
    const left = 10 - ((Date.now() / 1000) % 10);
    await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
    expect((await signIn(short.url, username, password)).status).toBe(200);
  });
});
