// `csp-generator check` as a pipeline runs it after a deploy (the real entry point, a child process),
// against a loopback server: the right policy served (exit 0, whatever the order of sources and the nonce),
// a drifted one (exit 1, the difference per directive), none (exit 1), and the policy under the other
// header than the one expected (exit 1, said so).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../testing/cli-process';

const EXPECTED =
  "default-src 'none'; script-src 'self' 'nonce-aaaa' https://cdn.example.com; img-src 'self' data:; object-src 'none'";

/** What each path serves: header name → value. */
const SERVED: Record<string, Record<string, string>> = {
  // The same policy: sources in another order, another nonce, names in upper case.
  '/right': {
    'content-security-policy':
      "Default-Src 'none'; img-src data: 'self'; script-src https://cdn.example.com 'nonce-bbbb' 'self'; object-src 'none'",
  },
  '/drifted': {
    'content-security-policy':
      "default-src 'none'; script-src 'self' 'nonce-bbbb' https://evil.example.net; img-src 'self' data:; style-src 'unsafe-inline'",
  },
  '/none': {},
  '/report-only': { 'content-security-policy-report-only': EXPECTED },
  '/moved': {},
};

let server: http.Server;
let origin: string;
let dir: string;
let policyFile: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/moved') {
      res.writeHead(302, { location: '/right' }).end();
      return;
    }
    res.writeHead(path in SERVED ? 200 : 404, { 'content-type': 'text/html', ...SERVED[path] });
    res.end('<!doctype html><title>site</title>');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'cli-check-'));
  policyFile = join(dir, 'csp-policy.txt');
  await writeFile(policyFile, `Content-Security-Policy: ${EXPECTED}\n`);
});
afterAll(async () => {
  await new Promise((ok) => server?.close(ok));
  await rm(dir, { recursive: true, force: true });
});

const check = (...args: string[]) => runCliProcess(['check', ...args]);

describe('csp-generator check --policy-file', () => {
  it('exits 0 when the served policy is the expected one, redirects followed', async () => {
    const run = await check(`${origin}/right`, `${origin}/moved`, '--policy-file', policyFile);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/serve Content-Security-Policy matching .*csp-policy\.txt/);
  });

  it('reads a relative --policy-file from where npx was called (npm says so in INIT_CWD)', async () => {
    const run = await runCliProcess(['check', `${origin}/right`, '--policy-file', 'csp-policy.txt'], {
      env: { INIT_CWD: dir },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('exits 1 on drift and prints the difference per directive', async () => {
    const run = await check(`${origin}/drifted`, '--policy-file', policyFile);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${origin}/drifted: the served Content-Security-Policy differs`);
    expect(run.stdout).toContain(
      'script-src (sources differ): + https://evil.example.net  - https://cdn.example.com',
    );
    expect(run.stdout).toContain("style-src (only served): + 'unsafe-inline'");
    expect(run.stdout).toContain("object-src (not served): - 'none'");
    expect(run.stdout).not.toContain('img-src');
  });

  it('exits 1 when no policy is served, and names the other header when that one carries it', async () => {
    const none = await check(`${origin}/none`, '--policy-file', policyFile);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain(`${origin}/none: no Content-Security-Policy header served`);

    const reportOnly = await check(`${origin}/report-only`, '--policy-file', policyFile);
    expect(reportOnly.code).toBe(1);
    expect(reportOnly.stdout).toContain(
      'serves the policy under Content-Security-Policy-Report-Only instead',
    );
    // Expecting report-only, it matches.
    expect((await check(`${origin}/report-only`, '--policy-file', policyFile, '--report-only')).code).toBe(0);
  });

  it('answers --json with the state, the served values and the differences', async () => {
    const run = await check(`${origin}/right`, `${origin}/drifted`, '--policy-file', policyFile, '--json');
    expect(run.code).toBe(1);
    const body = JSON.parse(run.stdout);
    expect(body.state).toBe('differs');
    expect(body.pages.map((p: { url: string }) => p.url)).toEqual([`${origin}/right`, `${origin}/drifted`]);
    expect(body.differences).toHaveLength(1);
    expect(body.differences[0].pages).toEqual([`${origin}/drifted`]);
  });

  it('exits 3 when the site cannot be reached, 2 on a wrong command line', async () => {
    // A port nothing listens on any more.
    const gone = http.createServer();
    await new Promise<void>((ok) => gone.listen(0, '127.0.0.1', ok));
    const closed = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/`;
    await new Promise((ok) => gone.close(ok));
    const down = await check(closed, '--policy-file', policyFile);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain(`Could not fetch ${closed}: connect ECONNREFUSED`);

    const neither = await check(`${origin}/right`);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('either --config <id> or --policy-file <file>');
    const missing = await check(`${origin}/right`, '--policy-file', join(dir, 'nope.txt'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read --policy-file');
  });
});
