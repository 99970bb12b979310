// The local server answers only to the names it really serves as. Without PUBLIC_URL, the server's own
// origin (cookies' Secure flag, the CSRF check) comes from the request's Host header; a page on
// evil.example whose name is made to resolve to 127.0.0.1 (DNS rebinding) would send Host: evil.example and
// a matching Origin, and pass. So any other Host is refused before a handler runs.
import { networkInterfaces } from 'node:os';
import { createMiddleware } from 'hono/factory';

/** host:port values the server accepts: loopback names, the bound address, interfaces, PUBLIC_URL's host. */
export function allowedHosts(options: { port: number; host: string; publicUrl?: string }): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (options.host === '0.0.0.0' || options.host === '::') {
    // Reachable from elsewhere by this machine's addresses.
    for (const list of Object.values(networkInterfaces())) {
      for (const nic of list ?? []) names.add(nic.family === 'IPv6' ? `[${nic.address}]` : nic.address);
    }
  } else names.add(options.host.includes(':') ? `[${options.host}]` : options.host);
  const hosts = new Set([...names].map((name) => `${name}:${options.port}`.toLowerCase()));
  if (options.port === 80) for (const name of names) hosts.add(name.toLowerCase());
  if (options.publicUrl) hosts.add(new URL(options.publicUrl).host.toLowerCase());
  return hosts;
}

/** Refuses requests whose Host is not one of `hosts()` with 421 and a JSON message. */
export function hostGuard(hosts: () => ReadonlySet<string>) {
  return createMiddleware(async function hostGuardMiddleware(c, next) {
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (!hosts().has(host)) {
      return c.json({ message: 'Misdirected request: this server does not answer to that host name' }, 421);
    }
    return next();
  });
}
