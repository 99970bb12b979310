// Thin captures under load: the fixture corpus crawled on a quiet machine, then again while every core is
// kept busy (CPU burners) and a second crawl runs beside it. A busy machine may make a crawl slower, never
// thinner: the loaded crawl must record the same observations, page by page, and say of any page whose
// capture did not finish that it is incomplete.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import type { CrawlArtifact } from '@csp/shared/csp/artifact';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observationKey } from './classify';
import { crawlArtifact } from './crawl';
import { PER_LOAD_PAGES } from './fixtures/content';
import { crawlCorpus } from './fixtures/corpus-crawl';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
});
afterAll(async () => {
  await sites?.close();
});

async function crawlOnce(): Promise<CrawlArtifact> {
  const { state, done } = await crawlCorpus(sites, { timeoutMs: 400_000, rerender: false });
  expect(done).toBe(true);
  return crawlArtifact(state);
}

/**
 * What the crawl saw, two ways: per page, its inline code (that is where thin captures showed: an inline
 * script, a handler, style blocks missing), and site-wide, every observation (the policy is their union;
 * requests of shared and service workers go to whichever page collects next, so only the site has them
 * in a fixed place). Inline code of pages that change it on every load is left out: it differs by design.
 */
function observed(artifact: CrawlArtifact, skip: ReadonlySet<string> = new Set()) {
  const inline: Record<string, string[]> = {};
  const site = new Set<string>();
  for (const page of artifact.pages) {
    const path = new URL(page.finalUrl).pathname;
    if (skip.has(path)) continue;
    const keys = page.observations
      .filter((o) => !(o.type === 'inline' && PER_LOAD_PAGES.includes(path)))
      .map(observationKey)
      // blob: URLs name a fresh object every load.
      .map((k) => k.replace(/blob:(\S+?)\/[0-9a-f-]{36}$/, 'blob:$1/…'));
    for (const k of keys) site.add(k);
    inline[path] = [...new Set([...(inline[path] ?? []), ...keys.filter((k) => k.startsWith('i '))])].sort();
  }
  return { inline, site: [...site].sort() };
}

function burnCpus(): ChildProcess[] {
  return cpus().map(() =>
    spawn(process.execPath, ['-e', 'const end = Date.now() + 600000; while (Date.now() < end) {}'], {
      stdio: 'ignore',
    }),
  );
}

describe('capture under load', () => {
  it('a crawl on a machine busy with CPU burners and a second crawl records what a quiet crawl records', async () => {
    const quiet = await crawlOnce();
    const burners = burnCpus();
    let loaded: CrawlArtifact;
    let second: CrawlArtifact;
    try {
      [loaded, second] = await Promise.all([crawlOnce(), crawlOnce()]);
    } finally {
      for (const b of burners) b.kill('SIGKILL');
    }
    const incomplete = [...loaded.pages, ...second.pages].filter((p) => p.incomplete);
    // Honest first: every page the crawl could not capture fully says so…
    expect(incomplete.map((p) => `${p.finalUrl}: ${p.incomplete}`)).toEqual([]);
    // …and none of the others is thin.
    const expected = observed(quiet);
    for (const crawl of [loaded, second]) {
      const got = observed(crawl);
      expect(Object.keys(got.inline).sort()).toEqual(Object.keys(expected.inline).sort());
      for (const [path, keys] of Object.entries(got.inline))
        expect(keys, path).toEqual(expected.inline[path]);
      expect(got.site).toEqual(expected.site);
    }
  }, 600_000);
});
