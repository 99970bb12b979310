// A report answered 204 is never lost: `npm start`'s own entry point is killed with SIGKILL in the middle
// of a burst of reports and started again on the same DATA_DIR; every report that got a 204 is then counted,
// exactly once. The process is the real one (functions/src/local/main.ts), on the test run's DynamoDB Local.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { registeredClient, TEST_ENV } from '../testing/api-server';
import { HttpClient } from '../testing/http-client';

const MAIN = resolve(import.meta.dirname, '../local/main.ts');
const SITE = 'https://shop.example.com';
const dataDir = mkdtempSync(join(tmpdir(), 'csp-durability-'));
const table = `t-${randomBytes(6).toString('hex')}`;
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `npm start`'s entry point and resolves with its URL once it says it is running. */
function startProduct(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      ...TEST_ENV,
      PORT: '0',
      DATA_DIR: dataDir,
      DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
      TABLE_NAME: table,
      // One test client sends the whole burst: the per-client limit is not what is tested here.
      REPORT_CLIENT_PER_MINUTE: '1000000',
      // No Firefox: a product killed with SIGKILL while its Firefox is still starting would leave it running
      // (firefox-pid-file.ts stops only one that had started), and verification is not what is tested here.
      FIREFOX_PATH: '/nonexistent/firefox-esr',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /running on (http:\/\/\S+)/.exec(out);
      if (m) ok({ url: m[1]!.replace('localhost', '127.0.0.1'), child });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => fail(new Error(`the product exited (${code}) before it ran: ${err}`)));
  });
}

/** Records the killed process had written to its queue log but not yet handed to the consumer. */
function undelivered(): number {
  const dir = join(dataDir, 'report-queue');
  const cursorFile = join(dir, 'cursor.json');
  const cursor = existsSync(cursorFile)
    ? (JSON.parse(readFileSync(cursorFile, 'utf8')) as { segment: number; offset: number })
    : { segment: 0, offset: 0 };
  let lines = 0;
  for (const file of readdirSync(dir)) {
    const segment = Number(/^segment-(\d+)\.log$/.exec(file)?.[1] ?? Number.NaN);
    if (!(segment >= cursor.segment)) continue;
    const text = readFileSync(join(dir, file), 'utf8').slice(segment === cursor.segment ? cursor.offset : 0);
    lines += text.split('\n').filter(Boolean).length;
  }
  return lines;
}

/** Fewer than a domain's new groups per hour (REPORT_LIMITS.newGroupsPerDomainHour): each is counted apart. */
const SOURCES = 250;

function report(uuid: string, url: string, n: number) {
  return fetch(`${url}/api/uri-report?domain=${uuid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/csp-report' },
    body: JSON.stringify({
      'csp-report': {
        'document-uri': `${SITE}/page`,
        'violated-directive': 'img-src',
        // SOURCES sources, so a report's group says which reports it may hold; the line number makes each
        // report distinct (an exact repeat from one client is dropped as noise).
        'blocked-uri': `https://r${n % SOURCES}.example.net/pixel.png`,
        'line-number': n,
      },
    }),
  });
}

describe('the local report queue', () => {
  it('loses no report answered 204 when the product is killed with SIGKILL mid-burst', async () => {
    const first = await startProduct();
    const { client } = await registeredClient(first.url);
    const created = await client.post('/api/domains', { name: 'Shop', url: SITE });
    expect(created.status).toBe(201);
    const domain = (await created.json()) as { id: string; uuid: string };

    // Eight senders post until the process dies under them; each report is acked or not, never unknown.
    const acked = new Set<number>();
    let next = 0;
    let killed = false;
    const sender = async () => {
      while (!killed) {
        const n = next++;
        try {
          const res = await report(domain.uuid, first.url, n);
          if (res.status === 204) acked.add(n);
          else throw new Error(`report ${n}: ${res.status} ${await res.text()}`);
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const senders = Array.from({ length: 8 }, sender);
    while (acked.size < 400) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    first.child.kill('SIGKILL');
    await Promise.all(senders);
    const sent = next;
    // The kill came mid-burst: the restart has reports to deliver (the consumer batches every 200 ms).
    expect(undelivered()).toBeGreaterThan(0);

    const second = await startProduct();
    const owner = new HttpClient(second.url);
    for (const [name, value] of client.cookies) owner.cookies.set(name, value);
    // The restarted product delivers what the killed one had queued; wait until the counts stop moving.
    type Body = { total: number; counts: { source: string; count: number }[] };
    let body: Body = { total: 0, counts: [] };
    const deadline = Date.now() + 60_000;
    for (let last = -1; Date.now() < deadline; ) {
      const res = await owner.get(`/api/domains/${domain.id}/uri-reports?days=1`);
      expect(res.status).toBe(200);
      body = (await res.json()) as Body;
      if (body.total >= acked.size && body.total === last) break;
      last = body.total;
      await new Promise((r) => setTimeout(r, 500));
    }
    // The list answers 200 groups a page: the rest is the next page.
    const rest = (await (
      await owner.get(`/api/domains/${domain.id}/uri-reports?days=1&groupOffset=200`)
    ).json()) as Body;
    const counted = new Map([...body.counts, ...rest.counts].map((g) => [g.source, g.count]));
    expect(counted.size).toBe(Math.min(SOURCES, sent));
    // Each source's count lies between the reports of it that were answered 204 and those sent: none lost,
    // none counted twice beyond what was in flight at the kill.
    const tally = (ns: Iterable<number>) => {
      const m = new Map<string, number>();
      for (const n of ns)
        m.set(`https://r${n % SOURCES}.example.net`, (m.get(`https://r${n % SOURCES}.example.net`) ?? 0) + 1);
      return m;
    };
    const ackedBy = tally(acked);
    const sentBy = tally(Array.from({ length: sent }, (_, n) => n));
    const lost = [...ackedBy].filter(([source, n]) => (counted.get(source) ?? 0) < n);
    expect(lost).toEqual([]);
    const doubled = [...counted].filter(([source, n]) => n > (sentBy.get(source) ?? 0));
    expect(doubled).toEqual([]);
    // Reports in flight at the kill may have been queued without their 204 reaching us: counted once too.
    expect(body.total).toBeGreaterThanOrEqual(acked.size);
    expect(body.total).toBeLessThanOrEqual(sent);
    expect([...counted.values()].reduce((a, b) => a + b, 0)).toBe(body.total);
    second.child.kill('SIGTERM');
  }, 120_000);
});
