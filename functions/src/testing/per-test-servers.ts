// For test files that start an API server and loopback fixture sites in each test and crawl into a blob
// folder of their own: the folder for the file, and whatever a test started closed after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { FixtureSites } from '../crawler/fixtures/sites';
import type { LocalServer } from '../local/server';

export interface PerTestServers {
  /** The crawl handler's blob folder, removed after the file. */
  blobDir: string;
  /** Set by a test; closed and cleared after it. */
  server?: LocalServer;
  sites?: FixtureSites;
}

export function perTestServers(): PerTestServers {
  const t: PerTestServers = { blobDir: mkdtempSync(join(tmpdir(), 'csp-blobs-')) };
  afterAll(() => rmSync(t.blobDir, { recursive: true, force: true }));
  afterEach(async () => {
    await t.server?.close();
    await t.sites?.close();
    t.server = undefined;
    t.sites = undefined;
  });
  return t;
}
