// Serves the built web app (web/dist) with an SPA fallback: any GET outside /api that is not a file gets
// index.html, and the client router decides (including its 404 page). Text files go compressed to a browser
// that accepts it, as CloudFront sends them in AWS (its caching policy serves Brotli, else gzip): Brotli
// at its best quality is some 13 % smaller than gzip on our scripts, which on a phone's network is time
// before the first screen. Brotli at that quality takes about a second for the whole app, so it is made in
// the background (libuv's threads, not the request's): until a file's Brotli bytes are ready, it goes
// gzipped. `npm start` makes them all once the web app is built (`precompress()`).
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { acceptedEncoding } from '../http/accept-encoding';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.webmanifest']);
/** The server's order of preference: the smaller first. */
const CODINGS = ['br', 'gzip'] as const;
const brotli = promisify(brotliCompress);

/** A file's compressed bodies, kept while the file is unchanged (a rebuild of web/dist replaces them). */
interface Compressed {
  version: string;
  gzip: Uint8Array<ArrayBuffer>;
  br?: Uint8Array<ArrayBuffer>;
  brPending?: Promise<void>;
}

class CompressedFiles {
  private readonly files = new Map<string, Compressed>();

  /** The file's entry for this version (gzip made now: it takes a millisecond), Brotli started if asked. */
  entry(file: string, version: string, body: Uint8Array<ArrayBuffer>, withBrotli: boolean): Compressed {
    let hit = this.files.get(file);
    if (hit?.version !== version) {
      hit = { version, gzip: gzipSync(body) };
      this.files.set(file, hit);
    }
    if (withBrotli && !hit.br && !hit.brPending) {
      const target = hit;
      target.brPending = brotli(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
        .then((out) => {
          target.br = new Uint8Array(out.buffer, out.byteOffset, out.byteLength) as Uint8Array<ArrayBuffer>;
        })
        // Without Brotli the file keeps going gzipped; a later request tries again.
        .catch(() => {})
        .finally(() => {
          target.brPending = undefined;
        });
    }
    return hit;
  }
}

function encoded(
  c: Context,
  cache: CompressedFiles,
  file: string,
  version: string,
  body: Uint8Array<ArrayBuffer>,
): { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  const coding = COMPRESSIBLE.has(extname(file))
    ? acceptedEncoding(c.req.header('accept-encoding'), CODINGS)
    : undefined;
  if (!coding) return { body, headers: { Vary: 'Accept-Encoding' } };
  const hit = cache.entry(file, version, body, coding === 'br');
  if (hit.br && coding === 'br') {
    return { body: hit.br, headers: { Vary: 'Accept-Encoding', 'Content-Encoding': 'br' } };
  }
  // Brotli not ready yet: gzip, if this client takes it.
  if (acceptedEncoding(c.req.header('accept-encoding'), ['gzip'])) {
    return { body: hit.gzip, headers: { Vary: 'Accept-Encoding', 'Content-Encoding': 'gzip' } };
  }
  return { body, headers: { Vary: 'Accept-Encoding' } };
}

/** Every file under dir (recursively). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
    ),
  );
  return nested.flat();
}

/**
 * The handler, and `precompress()`: compresses every text file of the app now, Brotli included, so the first
 * visitor already gets the smallest bytes (settles when done; a file that cannot be read is skipped).
 */
export function staticFiles(distDir: string) {
  const root = resolve(distDir);
  const cache = new CompressedFiles();
  async function serveStaticFile(c: Context) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.json({ message: 'Not found' }, 404);
    let path: string;
    try {
      path = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return c.json({ message: 'Bad path' }, 400);
    }
    const file = normalize(join(root, path));
    if (file.startsWith(root + sep)) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        const hashed = path.startsWith('/assets/');
        const out = encoded(c, cache, file, `${info.mtimeMs}:${info.size}`, await readFile(file));
        return c.body(out.body, 200, {
          ...out.headers,
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
      }
    }
    const indexFile = join(root, 'index.html');
    const indexInfo = await stat(indexFile).catch(() => null);
    const index = indexInfo && (await readFile(indexFile).catch(() => null));
    if (!indexInfo || !index) {
      return c.text(
        'The web app is not built yet: run `npm run build:web` (npm start does it for you).',
        503,
      );
    }
    const out = encoded(c, cache, indexFile, `${indexInfo.mtimeMs}:${indexInfo.size}`, index);
    return c.body(out.body, 200, {
      ...out.headers,
      'Content-Type': TYPES['.html']!,
      'Cache-Control': 'no-cache',
    });
  }
  return Object.assign(serveStaticFile, { precompress: () => precompress(root, cache) });
}

async function precompress(root: string, cache: CompressedFiles): Promise<void> {
  for (const file of await filesUnder(root)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const info = await stat(file).catch(() => null);
    const body = info && (await readFile(file).catch(() => null));
    if (!info || !body) continue;
    await cache.entry(file, `${info.mtimeMs}:${info.size}`, body, true).brPending;
  }
}
