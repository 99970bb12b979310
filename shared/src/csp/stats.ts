// The analysis summary (spec: Total Resources, Unique Domains, Security Issues) computed from a crawl and the
// policy generated for it.
import type { CspRules, ResourceStats } from '../schemas/analysis';
import type { CrawlArtifact } from './artifact';
import { effectiveSources, isSchemeSource, UNSAFE_EVAL, UNSAFE_HASHES, UNSAFE_INLINE } from './directives';
import { gradePolicy } from './grade';
import { authorityPrefix, schemeOf } from './source';

/** Sources that weaken a policy wherever they are honoured. */
const RISKY_KEYWORDS = new Set<string>([UNSAFE_INLINE, UNSAFE_EVAL, UNSAFE_HASHES]);
/** Bare network schemes allow a whole protocol: as broad as a wildcard. */
const BROAD_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);

/**
 * Risky sources of a policy as `directive value` keys: 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes',
 * wildcards (any source with `*`) and bare http:/https:/ws:/wss: — counted only where a CSP3 browser
 * honours them, so the strict-CSP fallbacks ('unsafe-inline' beside a nonce, https: under 'strict-dynamic')
 * do not count: csp_evaluator's effective policy drops them too.
 */
export function riskySources(rules: CspRules): string[] {
  const risky: string[] = [];
  for (const [directive, sources] of Object.entries(rules)) {
    if (directive === 'report-uri' || directive === 'report-to') continue;
    for (const source of effectiveSources(directive, sources)) {
      const broad = isSchemeSource(source) && BROAD_SCHEMES.has(source.toLowerCase());
      if (RISKY_KEYWORDS.has(source) || source.includes('*') || broad) risky.push(`${directive} ${source}`);
    }
  }
  return risky;
}

/**
 * - totalResources: distinct resources the crawl saw — distinct URLs plus distinct inline code hashes
 *   (a logo on 500 pages is one resource); eval and WebAssembly compilation are not resources.
 * - uniqueDomains: distinct host names among network resources (http, https, ws, wss), the site's own
 *   included; data: and blob: have no domain.
 * - securityIssues: distinct (directive, value) pairs that are either a risky source (riskySources) or
 *   the subject of a high-severity csp_evaluator finding; a pair flagged by both counts once.
 */
export function computeResourceStats(artifact: CrawlArtifact, rules: CspRules): ResourceStats {
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

  const issues = new Set(riskySources(rules));
  for (const f of gradePolicy(rules, { checks: 'default' })) {
    if (f.severity === 'high') issues.add(`${f.directive} ${f.value ?? f.code}`);
  }
  return { totalResources: resources.size, uniqueDomains: hosts.size, securityIssues: issues.size };
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}
