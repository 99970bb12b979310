// The analysis summary (spec: Total Resources, Unique Domains, Security Issues) computed from a crawl and the
// policy generated for it.
import type { CrawlArtifact } from './artifact';
import type { ResourceStats } from './policy';
import type { PolicyAudit } from './policy-audit';
import { authorityPrefix, schemeOf } from './source';

/**
 * - totalResources: distinct resources the crawl saw — distinct URLs plus distinct inline code hashes
 *   (a logo on 500 pages is one resource); eval and WebAssembly compilation are not resources.
 * - uniqueDomains: distinct host names among network resources (http, https, ws, wss), the site's own
 *   included; data: and blob: have no domain.
 * - securityIssues: the policy audit's issues (findings of severity high or medium), the same number the
 *   badge and the grade read.
 */
export function computeResourceStats(
  artifact: CrawlArtifact,
  audit: Pick<PolicyAudit, 'issues'>,
): ResourceStats {
  const resources = new Set<string>();
  const hosts = new Set<string>();
  const hostByPrefix = new Map<string, string | undefined>();
  for (const page of artifact.pages) {
    for (const obs of page.observations) {
      if (obs.type === 'inline') {
        resources.add(`#${obs.hash}`);
        continue;
      }
      if (obs.type !== 'url') continue;
      resources.add(obs.url);
      const scheme = schemeOf(obs.url);
      if (scheme !== 'http:' && scheme !== 'https:' && scheme !== 'ws:' && scheme !== 'wss:') continue;
      const prefix = authorityPrefix(obs.url) ?? obs.url;
      let host = hostByPrefix.get(prefix);
      if (!hostByPrefix.has(prefix)) {
        host = hostnameOf(prefix);
        hostByPrefix.set(prefix, host);
      }
      if (host) hosts.add(host);
    }
  }

  return { totalResources: resources.size, uniqueDomains: hosts.size, securityIssues: audit.issues };
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
