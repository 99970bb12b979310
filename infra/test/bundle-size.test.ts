// Each function's deployment package, built the way the stack builds it (esbuild, ESM, minified, source
// maps; the crawler's Chromium packages installed beside it, the ingest function on the runtime's AWS SDK),
// zipped: its size is printed,
// and the test fails over the targets (ingest under 300 KB, API under 1.5 MB) — small packages start fast.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { CRAWLER_NODE_MODULES, ENTRIES, type FunctionName } from '../lib/csp-generator-stack';
import { PROJECT_BUNDLING, RUNTIME_SDK_MODULES } from '../lib/project-function';

const ROOT = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'csp-bundles-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Bytes ceiling of each zipped package (the functions the issue names; the others are reported). */
export const ZIP_TARGETS: Partial<Record<FunctionName, number>> = {
  reportIngest: 300 * 1024,
  api: 1.5 * 1024 * 1024,
};

/** The zip's size: each file deflated (what Lambda's zip stores), plus a small header per file. */
function zippedSize(dir: string): number {
  return readdirSync(dir).reduce((n, f) => n + deflateRawSync(readFileSync(join(dir, f))).length + 100, 22);
}

async function bundle(name: FunctionName): Promise<number> {
  const dir = join(out, name);
  await build({
    entryPoints: [join(ROOT, ENTRIES[name])],
    outfile: join(dir, 'index.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: PROJECT_BUNDLING.target,
    mainFields: PROJECT_BUNDLING.mainFields,
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    banner: { js: PROJECT_BUNDLING.banner ?? '' },
    external: name === 'crawler' ? CRAWLER_NODE_MODULES : name === 'reportIngest' ? RUNTIME_SDK_MODULES : [],
    logLevel: 'silent',
  });
  return zippedSize(dir);
}

describe('deployment packages', () => {
  it('stay under their zipped size targets', async () => {
    const sizes: Record<string, number> = {};
    for (const name of Object.keys(ENTRIES) as FunctionName[]) sizes[name] = await bundle(name);
    console.log(
      `zipped packages (KB): ${Object.entries(sizes)
        .map(([n, b]) => `${n} ${(b / 1024).toFixed(0)}`)
        .join(', ')} (the crawler's Chromium packages come on top)`,
    );
    for (const [name, limit] of Object.entries(ZIP_TARGETS)) {
      expect(sizes[name], `${name}: ${sizes[name]} bytes`).toBeLessThan(limit);
    }
  }, 120_000);
});
