// The Firefox `npm start` keeps for verification runs in a process group of its own (puppeteer starts it
// detached), so it outlives a product killed with SIGKILL (the OOM killer, `kill -9`) and would stay running
// with its temporary profile until the machine restarts. The product notes it in DATA_DIR/firefox.pid and
// the next start on the same DATA_DIR stops one left behind. Linux only (/proc): elsewhere it does nothing.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as z from 'zod';

const FILE = 'firefox.pid';
/** Where puppeteer puts a Firefox's temporary profile (what a stale one's --profile must name to be removed). */
const PROFILE_PREFIX = join(tmpdir(), 'puppeteer_dev_firefox_profile');

const recordSchema = z.object({ pid: z.number().int().positive(), profile: z.string().min(1) });
type FirefoxRecord = z.infer<typeof recordSchema>;

/** The process's command line, or null when it is gone (or there is no /proc). */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/** The `--profile` a Firefox command line names. */
export function profileOf(args: readonly string[]): string | null {
  const at = args.indexOf('--profile');
  return at >= 0 ? (args[at + 1] ?? null) : null;
}

/**
 * Notes the kept Firefox (its pid and profile) in dataDir. Best effort: a note that cannot be written must not
 * cost the analyses their Firefox.
 */
export function recordFirefox(dataDir: string, pid: number | undefined): void {
  if (pid === undefined) return;
  const profile = profileOf(commandLine(pid) ?? []);
  if (!profile) return;
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, FILE), JSON.stringify({ pid, profile } satisfies FirefoxRecord));
  } catch {
    // Not noted: a SIGKILL would leave this one running, as before.
  }
}

/** Forgets the kept Firefox (it was closed). */
export function forgetFirefox(dataDir: string): void {
  rmSync(join(dataDir, FILE), { force: true });
}

/**
 * Stops the Firefox an earlier process on this dataDir left running, if the pid still is that Firefox (the
 * same --profile on its command line: a pid reused by another program is left alone), and removes its
 * profile. Returns whether one was stopped.
 */
export function reapStaleFirefox(dataDir: string): boolean {
  let record: FirefoxRecord;
  try {
    record = recordSchema.parse(JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')));
  } catch {
    return false;
  }
  forgetFirefox(dataDir);
  const args = commandLine(record.pid);
  if (!args || profileOf(args) !== record.profile) return false;
  try {
    // Its process group: Firefox's content processes go with it.
    process.kill(-record.pid, 'SIGKILL');
  } catch {
    return false;
  }
  if (resolve(record.profile).startsWith(PROFILE_PREFIX)) {
    rmSync(record.profile, { recursive: true, force: true });
  }
  return true;
}
