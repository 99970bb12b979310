// The in-process filtering proxy every browser request goes through (DESIGN.md "SSRF"). Chromium runs with
// --proxy-server pointing here and with name resolution disabled, so this is the only place a crawl's
// traffic leaves from: each request's host is resolved and checked by the guard, and the proxy connects to
// the checked address. Redirects are new requests from the browser, so every hop is checked again.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { BlockedTargetError, pinnedLookup, type TargetGuard } from './guard';

/**
 * Name of the header set on the proxy's own answers (refusals, unreachable hosts), so the crawler can tell
 * them from a site's 403 or 502. Random per proxy: a crawled site that sends a header of that name cannot
 * make its page look refused or unreachable in our analysis.
 */
function newSignalHeader(): string {
  return `x-csp-crawler-${randomBytes(12).toString('hex')}`;
}

/** Node's connection error codes, in words a site owner recognises. */
const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
};

export function describeConnectError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && CONNECT_ERRORS[code]) return CONNECT_ERRORS[code]!;
  if (error instanceof Error && /timeout/i.test(error.message)) return 'connection timed out';
  return 'could not connect';
}

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
  /** Hosts (host:port) the proxy could not reach, with why in words ("connection refused"). */
  readonly unreachable: Map<string, string>;
  /** Header name of the proxy's own answers (random per proxy; see newSignalHeader). */
  readonly signalHeader: string;
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
  const unreachable = new Map<string, string>();
  const signalHeader = newSignalHeader();
  const sockets = new Set<Duplex>();
  let forwarded = 0;
  // Keep-alive towards sites: the browser reuses its connection to us, we reuse ours to them.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: timeoutMs });

  /** Resolves and checks a host; on refusal records it and returns the message. */
  async function admit(
    host: string,
    port: number,
  ): Promise<
    { ok: true; addresses: Awaited<ReturnType<TargetGuard['resolve']>> } | { ok: false; message: string }
  > {
    try {
      return { ok: true, addresses: await guard.resolve(host, port) };
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
      res
        .writeHead(400, {
          [signalHeader]: encodeURIComponent(
            `Blocked request to ${target.href}: only http and https are crawled`,
          ),
        })
        .end('only http is proxied in absolute form');
      return;
    }
    const admitted = await admit(target.hostname, Number(target.port || 80));
    if (!admitted.ok) {
      res.writeHead(403, {
        [signalHeader]: encodeURIComponent(admitted.message),
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
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const words = describeConnectError(error);
      unreachable.set(target.host, words);
      const message = `${words} at ${target.href}`;
      res
        .writeHead(502, { 'content-type': 'text/plain', [signalHeader]: encodeURIComponent(message) })
        .end(message);
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
    const admitted = await admit(authority.host, authority.port);
    if (!admitted.ok) {
      client.end(
        `HTTP/1.1 403 Forbidden\r\n${signalHeader}: ${encodeURIComponent(admitted.message)}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
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
    upstream.on('error', (error) => {
      // Keyed like URL.host of an https URL (no :443), which is how the crawler looks it up.
      const host = authority.host.includes(':') ? `[${authority.host}]` : authority.host;
      const key = authority.port === 443 ? host : `${host}:${authority.port}`;
      if (!opened) unreachable.set(key, describeConnectError(error));
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
    unreachable,
    signalHeader,
    forwarded: () => forwarded,
    async close() {
      agent.destroy();
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
