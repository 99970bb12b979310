// The web app's files go compressed as CloudFront sends them: Brotli to a browser that accepts it (once made,
// in the background or at start), else gzip, plain to one that accepts neither; a rebuilt file is never
// answered with the old file's compressed bytes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticFiles } from './static-files';

const dist = mkdtempSync(join(tmpdir(), 'csp-static-'));
const script = `export const app = ${JSON.stringify('x'.repeat(20_000))};\n`;
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>CSP Generator</title>\n');
writeFileSync(join(dist, 'assets/index-abc.js'), script);
writeFileSync(join(dist, 'favicon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));

const servers: ReturnType<typeof serve>[] = [];
let url: string;
let precompressedUrl: string;
let precompressed: ReturnType<typeof staticFiles>;

async function listen(handler: ReturnType<typeof staticFiles>): Promise<string> {
  const server = serve({ fetch: new Hono().all('*', handler).fetch, port: 0, hostname: '127.0.0.1' });
  servers.push(server);
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  url = await listen(staticFiles(dist));
  precompressed = staticFiles(dist);
  precompressedUrl = await listen(precompressed);
});
afterAll(async () => {
  for (const server of servers) await new Promise<void>((ok) => server.close(() => ok()));
  rmSync(dist, { recursive: true, force: true });
});

/** The raw response (node:http, which does not decompress), to see the bytes on the wire. */
async function raw(path: string, acceptEncoding?: string, base = url) {
  const { request } = await import('node:http');
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((ok, fail) => {
    const req = request(`${base}${path}`, {
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('static files', () => {
  it('gzips text files for a browser that accepts gzip only, and only then', async () => {
    const zipped = await raw('/assets/index-abc.js', 'gzip, deflate, br;q=0');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(script.length / 10);
    expect(gunzipSync(zipped.body).toString()).toBe(script);

    const plain = await raw('/assets/index-abc.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(
      (await raw('/assets/index-abc.js', 'gzip;q=0, identity')).headers['content-encoding'],
    ).toBeUndefined();

    // The SPA fallback (index.html) too; an image is sent as it is.
    const page = await raw('/dashboard', 'gzip');
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.body).toString()).toContain('<title>CSP Generator</title>');
    expect((await raw('/favicon.png', 'gzip')).headers['content-encoding']).toBeUndefined();
  });

  it('sends Brotli to a browser that accepts it: gzip until it is made, then Brotli', async () => {
    const first = await raw('/assets/index-abc.js', 'gzip, deflate, br, zstd');
    // Made in the background: the first answer may already be Brotli on a fast machine.
    expect(['gzip', 'br']).toContain(first.headers['content-encoding']);
    let answer = first;
    for (let i = 0; i < 100 && answer.headers['content-encoding'] !== 'br'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      answer = await raw('/assets/index-abc.js', 'gzip, deflate, br, zstd');
    }
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(answer.body).toString()).toBe(script);
    const gzipped = await raw('/assets/index-abc.js', 'gzip');
    expect(answer.body.length).toBeLessThan(gzipped.body.length);
    // Brotli only, before it is made: the plain file (never a coding the browser did not ask for).
    const onlyBr = await raw('/index.html', 'br');
    expect(['br', undefined]).toContain(onlyBr.headers['content-encoding']);
  });

  it('with precompress, Brotli from the first request on', async () => {
    await precompressed.precompress();
    const answer = await raw('/assets/index-abc.js', 'gzip, deflate, br', precompressedUrl);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(answer.body).toString()).toBe(script);
    const page = await raw('/dashboard', 'br, gzip', precompressedUrl);
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toContain('<title>CSP Generator</title>');
    expect((await raw('/favicon.png', 'br', precompressedUrl)).headers['content-encoding']).toBeUndefined();
  });

  it('compresses a rebuilt file afresh', async () => {
    await raw('/index.html', 'gzip');
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Rebuilt, longer than before</title>\n');
    const page = await raw('/index.html', 'gzip');
    expect(gunzipSync(page.body).toString()).toContain('Rebuilt, longer than before');
    let brotli = await raw('/index.html', 'br, gzip');
    for (let i = 0; i < 100 && brotli.headers['content-encoding'] !== 'br'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      brotli = await raw('/index.html', 'br, gzip');
    }
    expect(brotliDecompressSync(brotli.body).toString()).toContain('Rebuilt, longer than before');
  });
});
