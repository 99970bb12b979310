// A kept Firefox left running by a killed `npm start` is stopped by the next start on the same DATA_DIR,
// with its temporary profile; a pid that now belongs to another program is left alone. The "Firefox" here
// is a detached process whose command line names a profile, as puppeteer starts Firefox.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetFirefox, profileOf, reapStaleFirefox, recordFirefox } from './firefox-pid-file';

const dataDir = mkdtempSync(join(tmpdir(), 'csp-firefox-pid-'));
const started: ChildProcess[] = [];

function fakeFirefox(profile: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', '--profile', profile], {
    detached: true,
    stdio: 'ignore',
  });
  started.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<string | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
    else child.once('exit', (_code, signal) => resolve(signal));
  });

afterAll(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the kept Firefox pid file', () => {
  it('reads the profile from a command line', () => {
    expect(profileOf(['firefox-esr', '--headless', '--profile', '/tmp/p1', 'about:blank'])).toBe('/tmp/p1');
    expect(profileOf(['firefox-esr', '--profile'])).toBeNull();
    expect(profileOf(['firefox-esr'])).toBeNull();
  });

  it('stops a Firefox an earlier run left behind, and removes its profile', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'puppeteer_dev_firefox_profile-'));
    const firefox = fakeFirefox(profile);
    await new Promise((r) => setTimeout(r, 300)); // its command line is in /proc once node has started
    recordFirefox(dataDir, firefox.pid);
    expect(existsSync(join(dataDir, 'firefox.pid'))).toBe(true);

    expect(reapStaleFirefox(dataDir)).toBe(true);
    expect(await exited(firefox)).toBe('SIGKILL');
    expect(existsSync(profile)).toBe(false);
    expect(existsSync(join(dataDir, 'firefox.pid'))).toBe(false);
    // Nothing left to stop the next time.
    expect(reapStaleFirefox(dataDir)).toBe(false);
  });

  it('leaves alone a pid that no longer is that Firefox, and a Firefox closed properly', async () => {
    const profile = join(tmpdir(), `puppeteer_dev_firefox_profile-other-${process.pid}`);
    mkdirSync(profile, { recursive: true });
    const other = fakeFirefox(profile);
    await new Promise((r) => setTimeout(r, 300));
    recordFirefox(dataDir, other.pid);
    // The pid was reused by a program with another profile: a record naming a different profile.
    writeFileSync(
      join(dataDir, 'firefox.pid'),
      JSON.stringify({ pid: other.pid, profile: '/tmp/elsewhere' }),
    );
    expect(reapStaleFirefox(dataDir)).toBe(false);
    expect(other.exitCode).toBeNull();
    expect(other.signalCode).toBeNull();

    recordFirefox(dataDir, other.pid);
    forgetFirefox(dataDir);
    expect(reapStaleFirefox(dataDir)).toBe(false);
    expect(existsSync(profile)).toBe(true);
    other.kill('SIGKILL');
    rmSync(profile, { recursive: true, force: true });
  });
});
