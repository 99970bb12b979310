// `npm start`'s runtime: DynamoDB Local keeps its data in DATA_DIR across restarts, and stopping leaves no
// process behind.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../testing/altcha';
import { TEST_ENV } from '../testing/api-server';
import { HttpClient } from '../testing/http-client';
import { startLocalServer } from './server';

const dataDir = mkdtempSync(join(tmpdir(), 'csp-data-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const javaProcessesFor = (dir: string) => {
  try {
    return execFileSync('pgrep', ['-f', `DynamoDBLocal.*${dir}`], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

describe('local runtime', () => {
  it('finds the data of a previous start on the same DATA_DIR, and stops DynamoDB Local on close', async () => {
    const first = await startLocalServer({ port: 0, dataDir, env: TEST_ENV });
    const c1 = new HttpClient(first.url);
    const res = await c1.post('/api/register', {
      username: 'persistent',
      email: 'p@example.test',
      password: 'secret12',
      altcha: await solvedAltcha(c1),
    });
    expect(res.status).toBe(201);
    expect(javaProcessesFor(dataDir)).not.toBe('');
    await first.close();
    expect(javaProcessesFor(dataDir)).toBe('');

    const second = await startLocalServer({ port: 0, dataDir, env: TEST_ENV });
    try {
      const c2 = new HttpClient(second.url);
      const login = await c2.post('/api/login', {
        username: 'persistent',
        password: 'secret12',
        altcha: await solvedAltcha(c2),
      });
      expect(login.status).toBe(200);
      // The signing secrets were kept in DATA_DIR too, so the first session's cookie is still valid.
      const old = new HttpClient(second.url);
      for (const [k, v] of c1.cookies) old.cookies.set(k, v);
      expect((await old.get('/api/user')).status).toBe(200);
    } finally {
      await second.close();
    }
    expect(javaProcessesFor(dataDir)).toBe('');
  });
});
