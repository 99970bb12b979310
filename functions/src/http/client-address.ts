// The client's address, from what the platform saw. Behind CloudFront (proven by the origin-verify header,
// see api/middleware/origin-guard.ts) that is the viewer address CloudFront's viewer-request function wrote
// from the connection (VIEWER_IP_HEADER, which no client can set); otherwise the connection's own address.
// X-Forwarded-For and CloudFront-Viewer-Address are never read: a client can send either.
import { VIEWER_IP_HEADER } from '@csp/shared/http/edge-headers';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';

/** `behindCloudFront`: an origin-verify secret is configured, so every accepted request came through it. */
export function clientAddress(c: Context, behindCloudFront: boolean): string {
  const env = c.env as
    | {
        incoming?: { socket?: { remoteAddress?: string } };
        requestContext?: { http?: { sourceIp?: string } };
      }
    | undefined;
  const direct = env?.requestContext?.http?.sourceIp ?? env?.incoming?.socket?.remoteAddress ?? 'unknown';
  if (!behindCloudFront) return direct;
  return c.req.header(VIEWER_IP_HEADER)?.trim() || direct;
}

const PLAIN_IPV4 =
  /^(?:::ffff:)?((?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))$/i;

/**
 * A dotted-quad IPv4 address (or its IPv4-mapped IPv6 form, as Node gives it on a dual-stack socket), in
 * its canonical form; null for anything else. The common case on every report, without a full parse.
 */
function plainIPv4(address: string): string | null {
  return PLAIN_IPV4.exec(address)?.[1] ?? null;
}

/**
 * The form in which a client address may be stored: its /24 (IPv4) or /48 (IPv6) network, so a stored
 * report does not identify a person. IPv4-mapped IPv6 addresses count as IPv4.
 */
export function truncatedAddress(address: string): string {
  const v4 = plainIPv4(address);
  if (v4) return `${v4.slice(0, v4.lastIndexOf('.'))}.0`;
  if (!ipaddr.isValid(address)) return 'unknown';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  if (ip.kind() === 'ipv4') {
    const o = (ip as ipaddr.IPv4).octets;
    return `${o[0]}.${o[1]}.${o[2]}.0`;
  }
  const parts = (ip as ipaddr.IPv6).parts;
  return ipaddr
    .fromByteArray([...parts.slice(0, 3).flatMap((p) => [p >> 8, p & 0xff]), ...new Array(10).fill(0)])
    .toString();
}

/** The key per-client limits group by: the whole IPv4 address, or the /64 of an IPv6 one (one host's range). */
export function rateLimitSubject(address: string): string {
  const v4 = plainIPv4(address);
  if (v4) return v4;
  if (!ipaddr.isValid(address)) return address;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  }
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts;
  return `${parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}
