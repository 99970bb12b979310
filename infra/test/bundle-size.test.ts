// `npx cdk synth` of the real app, as `npm run deploy` runs it (esbuild bundling, the crawler's Chromium
// packages installed beside its bundle), then each function's asset zipped: its size is printed, and the
// test fails over the targets (ingest under 300 KB, API under 1.5 MB, crawl coordinator and writer under
// 600 KB, the schedule dispatcher too) — small packages start fast.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'csp-synth-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Zipped bytes ceiling per function description prefix. */
const TARGETS: Record<string, number> = {
  'CSP Generator: receives CSP violation reports': 300 * 1024,
  'CSP Generator API (Hono)': 1.5 * 1024 * 1024,
  // Neither carries the crawler's code: the coordinator only invokes it, the writer only validates and writes.
  'CSP Generator: claims each queued analysis and runs it in the crawler': 600 * 1024,
  "CSP Generator: writes a crawler run's progress and result, given the run's token": 600 * 1024,
  // The table, the crawl queue and the start path: nothing of the API app or the crawler.
  'CSP Generator: starts due scheduled analyses, checks report flows, sends alerts': 600 * 1024,
};

/** What Lambda's zip stores: every file deflated, plus a small header each. */
function zippedSize(dir: string): number {
  let n = 22;
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, entry);
    if (statSync(path).isFile()) n += deflateRawSync(readFileSync(path)).length + 100;
  }
  return n;
}

describe('npx cdk synth', () => {
  it('synthesizes the app and keeps every package under its size target', () => {
    execFileSync('npx', ['cdk', 'synth', '--quiet', '-o', out], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: 300_000,
    });
    const template = JSON.parse(readFileSync(join(out, 'CspGenerator.template.json'), 'utf8')) as {
      Resources: Record<
        string,
        { Type: string; Properties: { Description?: string; Code?: { S3Key?: string } } }
      >;
    };
    const sizes = new Map<string, number>();
    for (const r of Object.values(template.Resources)) {
      const key = r.Type === 'AWS::Lambda::Function' ? r.Properties.Code?.S3Key : undefined;
      const description = r.Properties.Description;
      if (!key || !description?.startsWith('CSP Generator')) continue;
      sizes.set(description, zippedSize(join(out, `asset.${key.replace(/\.zip$/, '')}`)));
    }
    console.log([...sizes].map(([d, b]) => `${(b / 1024).toFixed(0).padStart(6)} KB  ${d}`).join('\n'));
    expect(sizes.size).toBe(8);
    for (const [description, limit] of Object.entries(TARGETS)) {
      expect(sizes.get(description), description).toBeLessThan(limit);
    }
    // The crawler carries Chromium beside its bundle, as a module.
    const crawler = Object.values(template.Resources).find((r) =>
      r.Properties.Description?.startsWith('CSP Generator crawler'),
    );
    const crawlerDir = join(out, `asset.${crawler!.Properties.Code!.S3Key!.replace(/\.zip$/, '')}`);
    expect(readdirSync(join(crawlerDir, 'node_modules', '@sparticuz', 'chromium', 'bin'))).toContain(
      'chromium.br',
    );
  }, 300_000);
});
