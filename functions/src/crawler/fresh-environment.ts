// Before each job in Lambda, the crawler makes its execution environment as fresh as a cold one. Lambda
// reuses a warm environment for later invocations, which may be other tenants' jobs; a page that took over
// an earlier job's Chromium (no sandbox) could have left a process running or files in /tmp (a replaced
// Chromium binary, a library on its LD_LIBRARY_PATH) to spy on or falsify the next job. So every process of
// our user that is neither this process nor one of its ancestors is killed, and /tmp is emptied: Chromium
// is unpacked again from the read-only package (1–2 s, against crawls of minutes). Only in Lambda: on a
// workstation the same user runs everything else.
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  uid: number;
}

/** The processes to kill: same user, not `self`, not an ancestor of `self` (the runtime, its init). */
export function straysOf(processes: readonly ProcessEntry[], self: number, uid: number): number[] {
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  const keep = new Set<number>([self]);
  for (let p = byPid.get(self); p && !keep.has(p.ppid) && p.ppid > 0; p = byPid.get(p.ppid)) keep.add(p.ppid);
  return processes.filter((p) => p.uid === uid && !keep.has(p.pid)).map((p) => p.pid);
}

/** Every process /proc shows (those that vanish while it is read are skipped). */
export function processTable(proc = '/proc'): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync(proc)) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(join(proc, name, 'status'), 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
      if (Number.isFinite(ppid) && Number.isFinite(uid)) entries.push({ pid: Number(name), ppid, uid });
    } catch {}
  }
  return entries;
}

/** Empties `dir` (its entries removed, the folder kept). */
export async function emptyDir(dir: string): Promise<number> {
  const names = readdirSync(dir);
  await Promise.all(names.map((n) => rm(join(dir, n), { recursive: true, force: true })));
  return names.length;
}

/** The whole reset, for the crawler's Lambda entry. */
export async function freshEnvironment(tmpDir = '/tmp'): Promise<{ killed: number; removed: number }> {
  const strays = straysOf(processTable(), process.pid, process.getuid?.() ?? -1);
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  return { killed: strays.length, removed: await emptyDir(tmpDir) };
}
