// What `npm start` prints before it is ready: the engines that verify policies, the web build's decision
// (built, with its time, or skipped), the start of the API, then the URL with the time to ready counted
// from the process's start. The real entry point as `npm start` runs it, on the test run's DynamoDB Local.
// (Within `npm test`, build:web has just built web/dist, so the start skips the build; web-build.test.ts
// covers the decision itself.)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { findFirefox } from '../crawler/firefox';
import { TEST_ENV } from '../testing/api-server';

const ROOT = resolve(import.meta.dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'csp-start-output-'));
let child: ChildProcess | undefined;
afterAll(async () => {
  // Stopped as Ctrl-C stops it, so what it started (DynamoDB Local's Java, the kept Firefox) goes too;
  // killed only if it does not stop.
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child?.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('npm start', () => {
  it('says what it does while it starts, and how long it took from the process start', {
    timeout: 240_000,
  }, async () => {
    const spawned = performance.now();
    child = spawn(process.execPath, ['--import', 'tsx', 'functions/src/local/main.ts', '--build-web'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...TEST_ENV,
        PORT: '0',
        DATA_DIR: dataDir,
        DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
        TABLE_NAME: `start-${randomBytes(4).toString('hex')}`,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = await new Promise<string>((ok, fail) => {
      let text = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (/ready in .*\n/.test(text)) ok(text);
      });
      child!.once('exit', (code) => fail(new Error(`exited (${code}) before it was ready:\n${text}`)));
    });
    const waited = (performance.now() - spawned) / 1000;

    const lines = out.split('\n').filter(Boolean);
    const build = lines.findIndex((l) =>
      /^(Web app unchanged since the last build: using web\/dist\.|Web app built in \d+\.\d s\.)$/.test(l),
    );
    const api = lines.indexOf('Starting the API and its database...');
    const ready = lines.findIndex((l) =>
      /^CSP Generator is running on http:\/\/localhost:\d+ \(ready in/.test(l),
    );
    // Which engines verify policies, said before anything starts (Firefox where this machine has it).
    const firefox = findFirefox(process.env.FIREFOX_PATH);
    const engines = lines.findIndex((l) => l.startsWith('Policies are verified in '));
    expect(lines[engines], out).toBe(
      'executablePath' in firefox
        ? `Policies are verified in Chromium and Firefox (${firefox.executablePath}).`
        : `Policies are verified in Chromium only: ${firefox.unavailable}.`,
    );
    expect(build, out).toBeGreaterThanOrEqual(0);
    expect(api, out).toBeGreaterThanOrEqual(0);
    expect(ready, out).toBeGreaterThan(Math.max(build, api));
    if (lines[build]!.startsWith('Web app built')) {
      expect(
        lines.slice(0, build).some((l) => /^Building the web app \(.+\)\.\.\.$/.test(l)),
        out,
      ).toBe(true);
    }
    // Counted from the process's start: more than what main() alone took, never more than the test waited.
    const seconds = Number(/ready in (\d+\.\d) s/.exec(lines[ready]!)![1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(waited + 0.1);
  });
});
