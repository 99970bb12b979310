// `npm run admin -- create <username>`: makes an admin from the command line, promotes an existing user,
// and refuses bad input without writing anything.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { hashPassword, verifyPassword } from '../auth/password';
import { createDb } from '../store/db';
import { ensureTable } from '../store/table';
import { createUser, getUserByUsername } from '../store/users';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../..');
const table = `admin-${randomBytes(4).toString('hex')}`;
const endpoint = inject('dynamoEndpoint');

function admin(args: string[], env: Record<string, string> = {}) {
  return run('npx', ['tsx', 'functions/src/local/admin-cli.ts', ...args], {
    cwd: root,
    env: { ...process.env, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: table, SCRYPT_LOG_N: '14', ...env },
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

describe('admin command', () => {
  it('creates an admin with the password from ADMIN_PASSWORD, and promotes an existing user', async () => {
    const created = await admin(['create', 'chief', '--email', 'chief@example.test'], {
      ADMIN_PASSWORD: 's3cret-pass',
    });
    expect(created.out).toContain('Admin chief created.');
    expect(created.code).toBe(0);
    const db = createDb({ table, endpoint });
    const chief = await getUserByUsername(db, 'chief');
    expect(chief).toMatchObject({ role: 'admin', email: 'chief@example.test' });
    expect(await verifyPassword('s3cret-pass', chief!.passwordHash)).toBe(true);

    await ensureTable(db);
    await createUser(db, {
      username: 'plain',
      email: null,
      passwordHash: await hashPassword('whatever', 14),
    });
    const promoted = await admin(['create', 'plain']);
    expect(promoted.out).toContain('plain is now an admin.');
    expect((await getUserByUsername(db, 'plain'))?.role).toBe('admin');
  });

  it('refuses a short password and a missing username, writing nothing', async () => {
    const short = await admin(['create', 'tiny'], { ADMIN_PASSWORD: '123' });
    expect(short.code).toBe(1);
    expect(short.out).toContain('Password must be at least 6 characters');
    expect(await getUserByUsername(createDb({ table, endpoint }), 'tiny')).toBeNull();
    // The API's own rules: a username of allowed characters, a valid email.
    const odd = await admin(['create', 'bad name!'], { ADMIN_PASSWORD: 'long enough' });
    expect(odd.code).toBe(1);
    expect(odd.out).toContain('Username may contain letters, digits, dot, dash and underscore only');
    const email = await admin(['create', 'goodname', '--email', 'not-an-email'], {
      ADMIN_PASSWORD: 'long enough',
    });
    expect(email.out).toContain('Please enter a valid email');
    const usage = await admin(['create']);
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('Usage: npm run admin -- create <username>');
  });
});
