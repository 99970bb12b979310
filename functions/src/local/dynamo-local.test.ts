// DynamoDB Local as `npm start` runs it: reachable from this machine only (bound to 127.0.0.1) and closed
// to web pages (no CORS for any browser origin), so the product's data is not an open door.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DynamoLocal, startDynamoLocal } from './dynamo-local';

let db: DynamoLocal;
beforeAll(async () => {
  db = await startDynamoLocal({ inMemory: true });
}, 90_000);
afterAll(async () => {
  await db?.stop();
});

/** Local addresses (hex, as /proc shows them) of the sockets listening on `port`. */
function listeners(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is "ADDR:PORT"; state 0A is LISTEN.
      if (fields[3] === '0A' && fields[1]?.endsWith(`:${hexPort}`)) out.push(fields[1].split(':')[0]!);
    }
  }
  return out;
}

describe('DynamoDB Local', () => {
  it('listens on 127.0.0.1 only', () => {
    const port = Number(new URL(db.endpoint).port);
    const addresses = listeners(port);
    expect(addresses.length).toBeGreaterThan(0);
    // 0100007F is 127.0.0.1; on a v6 socket, ::ffff:127.0.0.1. Never 0.0.0.0 or ::.
    for (const a of addresses) expect(['0100007F', '0000000000000000FFFF00000100007F']).toContain(a);
  });

  it('answers no web page: a cross-origin preflight gets no Access-Control-Allow-Origin', async () => {
    // node:http, not fetch: it sends the Origin header exactly as a browser would.
    const res = await new Promise<http.IncomingMessage>((ok, fail) => {
      const req = http.request(db.endpoint, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://evil.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type,x-amz-target',
        },
      });
      req.on('response', (r) => {
        r.resume();
        ok(r);
      });
      req.on('error', fail);
      req.end();
    });
    // Without Access-Control-Allow-Origin the browser refuses to send the request (DynamoDB Local's
    // default, '*', would allow any page).
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('DynamoDB Local of a killed product', () => {
  it('stops when the process that started it is killed with SIGKILL', { timeout: 120_000 }, async () => {
    const { spawn } = await import('node:child_process');
    const starter = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${import.meta.dirname}/dynamo-local.ts').then(async (m) => {
          const db = await m.startDynamoLocal({ inMemory: true });
          console.log(db.endpoint);
          setInterval(() => {}, 1000);
        });`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const endpoint = await new Promise<string>((resolve, reject) => {
      let out = '';
      starter.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /http:\/\/\S+/.exec(out);
        if (m) resolve(m[0]);
      });
      starter.once('exit', (code) => reject(new Error(`the starter exited (${code}) first`)));
    });
    const port = Number(new URL(endpoint).port);
    expect(listeners(port).length).toBeGreaterThan(0);
    starter.kill('SIGKILL');
    // Its standard input ended with the starter: it exits by itself, and nobody listens on its port.
    const deadline = Date.now() + 30_000;
    while (listeners(port).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(listeners(port)).toEqual([]);
  });
});
