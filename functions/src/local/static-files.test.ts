// The web app's files go gzipped to a browser that accepts gzip (as CloudFront sends them), plain to one
// that does not, and a rebuilt file is never answered with the old file's compressed bytes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
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

let server: ReturnType<typeof serve>;
let url: string;
beforeAll(async () => {
  const app = new Hono().all('*', staticFiles(dist));
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  rmSync(dist, { recursive: true, force: true });
});

/** The raw response (node:http, which does not decompress), to see the bytes on the wire. */
async function raw(path: string, acceptEncoding?: string) {
  const { request } = await import('node:http');
  return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((ok, fail) => {
    const req = request(`${url}${path}`, {
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
  it('gzips text files for a browser that accepts it, and only then', async () => {
    const zipped = await raw('/assets/index-abc.js', 'gzip, deflate, br');
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

  it('compresses a rebuilt file afresh', async () => {
    await raw('/index.html', 'gzip');
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Rebuilt, longer than before</title>\n');
    const page = await raw('/index.html', 'gzip');
    expect(gunzipSync(page.body).toString()).toContain('Rebuilt, longer than before');
  });
});
