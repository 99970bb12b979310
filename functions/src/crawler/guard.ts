// SSRF guard: decides whether the crawler may connect to a host, by resolving the name once and checking
// every address it resolves to. Callers connect to the checked addresses (never resolve again), so a DNS
// answer that changes between check and connect (rebinding) cannot slip a private address through.

import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** Why an address is refused, worded for the analysis' error list ("… addresses are not allowed"). */
const RANGE_LABELS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  reserved: 'reserved',
  uniqueLocal: 'unique local (IPv6 ULA)',
  deprecatedSiteLocal: 'site-local',
  ipv4Mapped: 'IPv4-mapped',
  rfc6145: 'IPv4-translated',
  rfc6052: 'NAT64',
  '6to4': '6to4',
  teredo: 'Teredo',
  benchmarking: 'benchmarking',
  discard: 'discard-only',
};

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Checks one literal IP address. Only globally routable unicast passes: everything else (loopback — where
 * the Lambda runtime API listens —, RFC 1918, link-local incl. 169.254.169.254, CGNAT, multicast, ULA, and
 * IPv4-mapped/NAT64/6to4/Teredo forms that could wrap any of those) is refused unless private targets are
 * allowed (local mode, where the demo and test sites live on loopback).
 */
export function checkAddress(address: string, allowPrivateTargets: boolean): AddressVerdict {
  // Strict syntax: ipaddr.js alone also accepts legacy forms such as "1.2.3" or "0x7f.1".
  if (isIP(address) === 0 || !ipaddr.isValid(address)) {
    return { allowed: false, reason: 'invalid addresses are not allowed' };
  }
  // process() turns ::ffff:127.0.0.1 into 127.0.0.1 so the IPv4 ranges apply to mapped forms.
  const parsed = ipaddr.process(address);
  if (allowPrivateTargets) return { allowed: true };
  const range = parsed.range();
  if (range === 'unicast') return { allowed: true };
  const label = RANGE_LABELS[range] ?? range;
  return { allowed: false, reason: `${label} addresses are not allowed` };
}

/** A refused target; its message is what the analysis shows. */
export class BlockedTargetError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`Blocked request to ${host}: ${reason}`);
    this.name = 'BlockedTargetError';
  }
}

export type CheckAddress = (address: string) => AddressVerdict;
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export interface TargetGuard {
  /**
   * Resolves `host` and returns its addresses (IPv4 first) if every one is allowed — and, with `port`,
   * if none of them is one of the product's own listeners; throws BlockedTargetError otherwise.
   */
  resolve(host: string, port?: number): Promise<LookupAddress[]>;
  /** Checks a URL's scheme only; names are checked by resolve(). */
  checkScheme(url: URL): void;
}

/**
 * Builds the guard used by the proxy and by discovery fetches. Results are cached for a short while: the
 * cache holds checked addresses and we connect to exactly those, so caching cannot reopen rebinding.
 */
export function createTargetGuard(options: {
  allowPrivateTargets: boolean;
  /** Replaces the address check (tests narrow it, e.g. "allow 127.0.0.1 only"). */
  check?: CheckAddress;
  resolver?: Resolver;
  cacheMs?: number;
  /**
   * Ports the product itself listens on (the local API, DynamoDB Local): never reached on this machine's
   * own addresses, even where private targets are allowed, so a crawled page cannot drive the product.
   */
  ownPorts?: readonly number[];
}): TargetGuard {
  const check = options.check ?? ((address: string) => checkAddress(address, options.allowPrivateTargets));
  const resolver = options.resolver ?? systemResolver;
  const cacheMs = options.cacheMs ?? 30_000;
  const cache = new Map<string, { at: number; result: Promise<LookupAddress[]> }>();

  async function resolveUncached(host: string): Promise<LookupAddress[]> {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const addresses: LookupAddress[] = isIP(bare)
      ? [{ address: bare, family: isIP(bare) }]
      : await resolver(bare).catch((error: NodeJS.ErrnoException) => {
          throw new BlockedTargetError(
            bare,
            `the name could not be resolved (${error.code ?? error.message})`,
          );
        });
    if (addresses.length === 0) throw new BlockedTargetError(bare, 'the name has no addresses');
    for (const { address } of addresses) {
      const verdict = check(address);
      // Shown with the address when a name resolved to it, so a user sees why their host was refused.
      if (!verdict.allowed) {
        throw new BlockedTargetError(bare === address ? bare : `${bare} (${address})`, verdict.reason);
      }
    }
    // IPv4 first: dual-stack names like localhost often listen on IPv4 only.
    return [...addresses].sort((a, b) => a.family - b.family);
  }

  const ownPorts = new Set(options.ownPorts ?? []);
  function resolveHost(host: string): Promise<LookupAddress[]> {
    const key = host.toLowerCase();
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < cacheMs) return hit.result;
    const result = resolveUncached(key);
    cache.set(key, { at: Date.now(), result });
    return result;
  }

  return {
    async resolve(host, port) {
      const addresses = await resolveHost(host);
      if (port !== undefined && ownPorts.has(port)) {
        const own = addresses.find(({ address }) => isThisMachine(address));
        if (own) {
          const bare = host.replace(/^\[|\]$/g, '');
          throw new BlockedTargetError(
            `${bare === own.address ? bare : `${bare} (${own.address})`}:${port}`,
            "the product's own services are never crawled",
          );
        }
      }
      return addresses;
    },
    checkScheme(url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new BlockedTargetError(url.protocol, 'only http and https URLs are crawled');
      }
    },
  };
}

/**
 * A `lookup` for net/http/tls that answers with already-checked addresses, so the socket connects to what
 * the guard approved and the system resolver is never asked again.
 */
export function pinnedLookup(addresses: LookupAddress[]) {
  return (
    _hostname: string,
    options: { all?: boolean } | number | undefined,
    callback: (...args: unknown[]) => void,
  ): void => {
    const first = addresses[0]!;
    if (typeof options === 'object' && options?.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
}

/** Whether an address is this machine's: loopback, unspecified (0.0.0.0, ::) or one of its interfaces. */
export function isThisMachine(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'loopback' || range === 'unspecified') return true;
  const normalized = parsed.toString();
  for (const list of Object.values(networkInterfaces())) {
    for (const nic of list ?? []) {
      if (ipaddr.isValid(nic.address) && ipaddr.process(nic.address).toString() === normalized) return true;
    }
  }
  return false;
}
