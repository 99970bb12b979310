// `npm start` and `npm run build:web` build the web app only when what it is built from changed since the
// last build: a content hash of those inputs is kept beside web/dist (web/.dist-sources.json), with a
// fingerprint of the dist it describes, so a dist built another way (e.g. a plain `vite build`) is never
// mistaken for it. `node --import tsx functions/src/local/web-build.ts [--force]` runs it on its own.
import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as z from 'zod';

export const STAMP_FILE = 'web/.dist-sources.json';

/**
 * Tailwind scans every file under web/ that git does not ignore for class names (its scanner's base is
 * Vite's root), so every such file is an input, not only web/src: these are the ignored folders.
 */
const NOT_INPUTS_IN_WEB = new Set(['node_modules', 'dist', '.test-artifacts']);
/** Outside web/: the dependency versions and the compiler options web/tsconfig.json extends. */
const ROOT_INPUTS = ['package-lock.json', 'tsconfig.base.json'];

const stampSchema = z.object({
  sources: z.string(),
  /** shared/src files in the last build's module graph (repo-relative): only these can change the app. */
  sharedFiles: z.array(z.string()),
  /** Hash of dist/index.html, which names every hashed asset: the dist this stamp describes. */
  dist: z.string(),
});
type Stamp = z.infer<typeof stampSchema>;

function filesUnder(dir: string, out: string[], skip: ReadonlySet<string> = new Set()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, out);
    else if (entry.isFile()) out.push(path);
  }
}

/** The hash of everything the build reads: web/ (but its outputs), the given shared files, the lock file, VITE_* variables. */
export function sourcesHash(root: string, sharedFiles: readonly string[], env: NodeJS.ProcessEnv): string {
  const files: string[] = [];
  filesUnder(join(root, 'web'), files, NOT_INPUTS_IN_WEB);
  const stamp = resolve(root, STAMP_FILE);
  const inputs = [
    ...files.filter((f) => f !== stamp).map((f) => relative(root, f)),
    ...sharedFiles,
    ...ROOT_INPUTS,
  ].sort();
  const hash = createHash('sha256');
  for (const file of inputs) {
    const path = join(root, file);
    // A path and its content, each length-prefixed: no two different inputs hash alike.
    const content = existsSync(path) ? readFileSync(path) : Buffer.from('(missing)');
    hash.update(`${file.split(sep).join('/')}\0${content.length}\0`).update(content);
  }
  // Vite bakes these into the bundle (import.meta.env).
  for (const key of Object.keys(env)
    .filter((k) => k.startsWith('VITE_'))
    .sort()) {
    hash.update(`env:${key}=${env[key]}\0`);
  }
  return hash.digest('hex');
}

function distFingerprint(root: string): string | null {
  const index = join(root, 'web/dist/index.html');
  return existsSync(index) ? createHash('sha256').update(readFileSync(index)).digest('hex') : null;
}

function readStamp(root: string): Stamp | null {
  try {
    return stampSchema.parse(JSON.parse(readFileSync(join(root, STAMP_FILE), 'utf8')));
  } catch {
    return null;
  }
}

/** Why the web app must be built, or null when web/dist is the build of the current sources. */
export function buildReason(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const stamp = readStamp(root);
  const dist = distFingerprint(root);
  if (!dist) return 'no build yet';
  if (!stamp || stamp.dist !== dist) return 'web/dist was not built by this step';
  if (stamp.sources !== sourcesHash(root, stamp.sharedFiles, env)) {
    return 'sources changed since the last build';
  }
  return null;
}

/** Builds web/ with Vite's API into web/dist and returns the shared/src files of its module graph. */
async function viteBuild(root: string): Promise<string[]> {
  const { build } = await import('vite');
  const result = await build({ root: join(root, 'web'), logLevel: 'warn', mode: 'production' });
  const outputs = Array.isArray(result) ? result : [result];
  const shared = realpathSync(join(root, 'shared/src')) + sep;
  const files = new Set<string>();
  for (const output of outputs) {
    if (!('output' in output)) continue;
    for (const item of output.output) {
      if (item.type !== 'chunk') continue;
      for (const id of item.moduleIds) {
        // Module ids may carry a query (?worker) or a virtual-module prefix.
        const path = id.replace(/^\0/, '').replace(/\?.*$/, '');
        if (path.startsWith(shared)) files.add(join('shared/src', relative(shared, path)));
      }
    }
  }
  return [...files].sort();
}

export interface WebBuildOptions {
  /** The repository root. */
  root: string;
  log: (line: string) => void;
  force?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Builds the web app when its sources changed (or when forced); says what it does and how long it took. */
export async function ensureWebBuild(opts: WebBuildOptions): Promise<{ built: boolean; ms: number }> {
  const env = opts.env ?? process.env;
  const started = performance.now();
  const reason = opts.force ? 'forced' : buildReason(opts.root, env);
  if (!reason) {
    opts.log('Web app unchanged since the last build: using web/dist.');
    return { built: false, ms: performance.now() - started };
  }
  opts.log(`Building the web app (${reason})...`);
  const stampPath = join(opts.root, STAMP_FILE);
  // A build that fails or is interrupted must leave no stamp that vouches for a half-written dist.
  rmSync(stampPath, { force: true });
  const sources = sourcesHash(opts.root, [], env); // web/ and the lock file as the build reads them
  const sharedFiles = await viteBuild(opts.root);
  const dist = distFingerprint(opts.root);
  if (!dist) throw new Error('the web build wrote no web/dist/index.html');
  // The hash is taken with the shared files only now known; web/ was read before the build, so an edit
  // made during the build makes the next start build again rather than trust a stale dist.
  const stamp: Stamp = {
    sources: sources === sourcesHash(opts.root, [], env) ? sourcesHash(opts.root, sharedFiles, env) : 'stale',
    sharedFiles,
    dist,
  };
  writeFileSync(`${stampPath}.tmp`, `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(`${stampPath}.tmp`, stampPath);
  const ms = performance.now() - started;
  opts.log(`Web app built in ${(ms / 1000).toFixed(1)} s.`);
  return { built: true, ms };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureWebBuild({
    root: resolve(import.meta.dirname, '../../..'),
    log: (line) => process.stdout.write(`${line}\n`),
    force: process.argv.includes('--force'),
  }).catch((err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
