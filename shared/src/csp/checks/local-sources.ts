// Sources that do not reach the public web: loopback (this machine), private-network addresses, and the
// product's own report endpoint. Advice such as "use HTTPS" or "make sure this host serves no JSONP" is
// about hosts an attacker could sit between or control on the internet; for these it does not judge the
// deployed policy (a site crawled on 127.0.0.1 is deployed under its real origins, and the product's own
// endpoint is served as the product is), so a finding that names one is information, never an issue.
import type { PolicyFinding } from '../finding';
import { isScored } from '../grade';
import type { AuditContext } from './check';

export type LocalKind = 'loopback' | 'private' | 'own-endpoint';

/** The host of a host-source or URL as written (`http://127.0.0.1:8080/x` → `127.0.0.1`), lower case. */
export function hostOfSource(source: string): string | undefined {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(\[[0-9a-f:.]+\]|[^/:?#'\s]+)/i.exec(source);
  if (!m || source.startsWith("'")) return undefined;
  return m[1]!.toLowerCase();
}

function ipv4(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/**
 * loopback: 127.0.0.0/8, localhost and *.localhost (RFC 6761: always this machine), [::1].
 * private: 10/8, 172.16/12, 192.168/16, 169.254/16 (link-local), 100.64/10 (carrier NAT), IPv6 unique-local
 * fc00::/7 and link-local fe80::/10.
 */
export function hostKind(host: string): 'loopback' | 'private' | undefined {
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return 'loopback';
  const v4 = ipv4(host);
  if (v4) {
    const [a, b] = v4 as [number, number];
    if (a === 127) return 'loopback';
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
    if ((a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127)) return 'private';
    return undefined;
  }
  if (/^\[f[cd][0-9a-f]{0,2}:/.test(host) || /^\[fe[89ab][0-9a-f]?:/.test(host)) return 'private';
  return undefined;
}

function originOfUrl(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** What kind of non-public source this is, or undefined for a source on the public web. */
export function localKind(source: string, productEndpoint: string | null): LocalKind | undefined {
  if (productEndpoint) {
    const own = originOfUrl(productEndpoint);
    if (source === productEndpoint || (own && originOfUrl(source) === own)) return 'own-endpoint';
  }
  const host = hostOfSource(source);
  return host ? hostKind(host) : undefined;
}

const WHY: Record<LocalKind, string> = {
  loopback:
    'This is a loopback address (this machine): its traffic never crosses a network, so it does not weigh on the grade. The policy you deploy names your real origins.',
  private:
    'This is a private-network address, reachable only inside your network, so it does not weigh on the grade. Check it before serving the policy on the public web.',
  'own-endpoint':
    "This is the product's own report endpoint: it is served as the product is (over HTTPS once the product is), so it does not weigh on the grade.",
};

/**
 * Runs after every check: a scored finding whose value is a loopback, private or own-endpoint source
 * becomes info, with the reason added. Generator findings are left as written (they are not scored).
 */
export function judgeLocalSources(findings: PolicyFinding[], context: AuditContext): PolicyFinding[] {
  return findings.map((f) => {
    if (!isScored(f) || !f.value || f.severity === 'info') return f;
    const kind = localKind(f.value, context.productEndpoint);
    if (!kind) return f;
    const judged: PolicyFinding = { ...f, severity: 'info', description: `${f.description} ${WHY[kind]}` };
    // Nothing to fix on this machine or on the product's endpoint; a private address may still need a name.
    if (kind !== 'private') delete judged.fix;
    return judged;
  });
}
