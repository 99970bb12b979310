// Serves the built web app (web/dist) with an SPA fallback: any GET outside /api that is not a file gets
// index.html, and the client router decides (including its 404 page).
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
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

export function staticFiles(distDir: string) {
  const root = resolve(distDir);
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
        const body = await readFile(file);
        const hashed = path.startsWith('/assets/');
        return c.body(body, 200, {
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
      }
    }
    const index = await readFile(join(root, 'index.html')).catch(() => null);
    if (!index) {
      return c.text(
        'The web app is not built yet: run `npm run build:web` (npm start does it for you).',
        503,
      );
    }
    return c.body(index, 200, { 'Content-Type': TYPES['.html']!, 'Cache-Control': 'no-cache' });
  };
}
