// Which processes the crawler's per-job reset kills (never itself or its ancestors, never another user's),
// and the emptying of its temporary folder. The kill itself runs only in Lambda (here the same user runs
// everything else on the machine), so it is the selection that is tested.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyDir, processTable, straysOf } from './fresh-environment';

describe('fresh environment before each crawl job', () => {
  it("kills our user's other processes, never ourselves, our ancestors or other users' processes", () => {
    const table = [
      { pid: 1, ppid: 0, uid: 993 }, // Lambda's init, our ancestor
      { pid: 7, ppid: 1, uid: 993 }, // the runtime: us
      { pid: 20, ppid: 7, uid: 993 }, // a Chromium left from the last job
      { pid: 21, ppid: 20, uid: 993 }, // its renderer
      { pid: 40, ppid: 1, uid: 993 }, // a daemon a page double-forked
      { pid: 50, ppid: 1, uid: 0 }, // another user's
    ];
    expect(straysOf(table, 7, 993).sort((a, b) => a - b)).toEqual([20, 21, 40]);
    // A deeper chain: every ancestor kept.
    expect(straysOf([...table, { pid: 8, ppid: 7, uid: 993 }], 8, 993).sort((a, b) => a - b)).toEqual([
      20, 21, 40,
    ]);
  });

  it('reads the process table: this process with its parent', () => {
    const self = processTable().find((p) => p.pid === process.pid);
    expect(self).toMatchObject({ ppid: process.ppid, uid: process.getuid?.() });
    expect(straysOf(processTable(), process.pid, process.getuid?.() ?? -1)).not.toContain(process.ppid);
  });

  it('empties the temporary folder, nested entries included, and keeps the folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csp-fresh-'));
    try {
      mkdirSync(join(dir, 'chromium', 'lib'), { recursive: true });
      writeFileSync(join(dir, 'chromium', 'lib', 'libevil.so'), 'x');
      writeFileSync(join(dir, 'planted'), 'x');
      expect(await emptyDir(dir)).toBe(2);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
