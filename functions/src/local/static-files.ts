// Serves the built web app (web/dist) with an SPA fallback: any GET outside /api that is not a file gets
// index.html, and the client router decides (including its 404 page). Text files go gzipped to a browser
// that accepts it, as CloudFront sends them in AWS: the first load of the app is a third of the bytes.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';

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

/** Gzipped bodies by file, kept while the file is unchanged (a rebuild of web/dist replaces them). */
type GzipCache = Map<string, { version: string; body: Uint8Array<ArrayBuffer> }>;

function acceptsGzip(c: Context): boolean {
  return /\bgzip\b(?!\s*;\s*q=0(?:\.0*)?(?![.\d]))/.test(c.req.header('accept-encoding') ?? '');
}

function encoded(
  c: Context,
  cache: GzipCache,
  file: string,
  version: string,
  body: Uint8Array<ArrayBuffer>,
): { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  if (!COMPRESSIBLE.has(extname(file)) || !acceptsGzip(c)) {
    return { body, headers: { Vary: 'Accept-Encoding' } };
  }
  let hit = cache.get(file);
  if (hit?.version !== version) {
    hit = { version, body: gzipSync(body) };
    cache.set(file, hit);
  }
  return { body: hit.body, headers: { Vary: 'Accept-Encoding', 'Content-Encoding': 'gzip' } };
}

export function staticFiles(distDir: string) {
  const root = resolve(distDir);
  const cache: GzipCache = new Map();
  return async function serveStaticFile(c: Context) {
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
  };
}
