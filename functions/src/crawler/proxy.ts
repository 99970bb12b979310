// The in-process filtering proxy every browser request goes through (DESIGN.md "SSRF"). Chromium runs with
// --proxy-server pointing here and with name resolution disabled, so this is the only place a crawl's
// traffic leaves from: each request's host is resolved and checked by the guard, and the proxy connects to
// the checked address. Redirects are new requests from the browser, so every hop is checked again.
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { BlockedTargetError, pinnedLookup, type TargetGuard } from './guard';

/** Set on the proxy's own refusal responses, so the crawler can tell a refusal from a site's 403. */
export const BLOCKED_HEADER = 'x-csp-crawler-blocked';

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export interface CrawlProxy {
  /** `http://127.0.0.1:PORT`, for --proxy-server. */
  readonly url: string;
  readonly port: number;
  /** Refusals so far, by host, as the analysis shows them ("Blocked request to …: …"). */
  readonly blocked: Map<string, string>;
  /** Requests the proxy forwarded (after the check), for tests and logs. */
  readonly forwarded: () => number;
  close(): Promise<void>;
}

function filterRawHeaders(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** Splits a CONNECT authority `host:port` / `[v6]:port`. */
function parseAuthority(authority: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

export async function startProxy(options: {
  guard: TargetGuard;
  upstreamTimeoutMs?: number;
}): Promise<CrawlProxy> {
  const { guard } = options;
  const timeoutMs = options.upstreamTimeoutMs ?? 30_000;
  const blocked = new Map<string, string>();
  const sockets = new Set<Duplex>();
  let forwarded = 0;
  // Keep-alive towards sites: the browser reuses its connection to us, we reuse ours to them.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: timeoutMs });

  /** Resolves and checks a host; on refusal records it and returns the message. */
  async function admit(
    host: string,
  ): Promise<
    { ok: true; addresses: Awaited<ReturnType<TargetGuard['resolve']>> } | { ok: false; message: string }
  > {
    try {
      return { ok: true, addresses: await guard.resolve(host) };
    } catch (error) {
      const message =
        error instanceof BlockedTargetError ? error.message : `Blocked request to ${host}: ${String(error)}`;
      blocked.set(host, message);
      return { ok: false, message };
    }
  }

  const server = http.createServer(async (req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute http URL expected');
      return;
    }
    // https goes through CONNECT; anything else (ftp:, file:, …) is never fetched.
    if (target.protocol !== 'http:') {
      res.writeHead(400, { [BLOCKED_HEADER]: 'scheme' }).end('only http is proxied in absolute form');
      return;
    }
    const admitted = await admit(target.hostname);
    if (!admitted.ok) {
      res.writeHead(403, {
        [BLOCKED_HEADER]: encodeURIComponent(admitted.message),
        'content-type': 'text/plain',
      });
      res.end(admitted.message);
      return;
    }
    forwarded += 1;
    const upstream = http.request({
      host: target.hostname,
      port: target.port || 80,
      path: `${target.pathname}${target.search}`,
      method: req.method,
      headers: filterRawHeaders(req.rawHeaders),
      agent,
      lookup: pinnedLookup(admitted.addresses) as never,
      timeout: timeoutMs,
    });
    upstream.on('response', (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, filterRawHeaders(upRes.rawHeaders));
      upRes.pipe(res);
      upRes.on('error', () => res.destroy());
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error.message));
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });

  /** Opens a TCP connection to an authority after the check, or answers the client with a refusal. */
  async function tunnel(
    authority: { host: string; port: number },
    client: Duplex,
    onOpen: (upstream: net.Socket) => void,
  ): Promise<void> {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const admitted = await admit(authority.host);
    if (!admitted.ok) {
      client.end(
        `HTTP/1.1 403 Forbidden\r\n${BLOCKED_HEADER}: ${encodeURIComponent(admitted.message)}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    forwarded += 1;
    const upstream = net.connect({
      host: authority.host,
      port: authority.port,
      lookup: pinnedLookup(admitted.addresses) as never,
      autoSelectFamily: true,
    });
    sockets.add(upstream);
    let opened = false;
    upstream.setTimeout(timeoutMs, () => upstream.destroy());
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => {
      if (client.writable && !opened) {
        client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      } else client.destroy();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('connect', () => {
      opened = true;
      onOpen(upstream);
    });
  }

  // HTTPS and WebSockets (Chromium tunnels ws:/wss: through CONNECT as well).
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    const authority = parseAuthority(req.url ?? '');
    if (!authority) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    void tunnel(authority, client, (upstream) => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });

  // An Upgrade sent in absolute form (plain ws: without CONNECT): forward the request head as is.
  server.on('upgrade', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'ws:') {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    void tunnel({ host: target.hostname, port: Number(target.port || 80) }, client, (upstream) => {
      const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        const name = req.rawHeaders[i]!;
        if (!/^proxy-/i.test(name)) lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    blocked,
    forwarded: () => forwarded,
    async close() {
      agent.destroy();
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
