// Would a browser enforcing these rules allow what the crawler observed? A CSP3 source-list matcher
// (§6.7.2) for the cases a crawl produces, used to prove generated policies cover their crawl and to tell
// whether a reported violation is already allowed. Nonce-bearing and 'strict-dynamic'-trusted scripts
// are outside what an observation records, so under 'strict-dynamic' script URLs never match here.
import type { Observation } from './artifact';
import {
  type Directive,
  effectiveDirective,
  effectiveSources,
  isHash,
  isNonce,
  isSchemeSource,
  NONE,
  SELF,
  UNSAFE_EVAL,
  UNSAFE_HASHES,
  UNSAFE_INLINE,
  WASM_UNSAFE_EVAL,
} from './directives';
import type { CspRules } from './policy';

/** The effective source list for a directive, or undefined when the policy does not restrict it. */
function effectiveList(
  rules: CspRules,
  directive: Directive,
): { name: Directive; sources: string[] } | undefined {
  const name = effectiveDirective(directive, (d) => rules[d] !== undefined);
  if (name === undefined) return undefined;
  return { name, sources: effectiveSources(name, rules[name] ?? []) };
}

export function allowsObservation(rules: CspRules, observation: Observation, selfOrigin: string): boolean {
  switch (observation.type) {
    case 'url': {
      const list = effectiveList(rules, observation.directive);
      if (!list) return true;
      let url: URL;
      try {
        url = new URL(observation.url);
      } catch {
        return false;
      }
      const upgrades =
        rules['upgrade-insecure-requests'] !== undefined &&
        observation.directive !== 'form-action' &&
        observation.directive !== 'base-uri';
      if (upgrades && (url.protocol === 'http:' || url.protocol === 'ws:')) {
        url.protocol = url.protocol === 'http:' ? 'https:' : 'wss:';
        if (url.port === '80') url.port = '';
      }
      return list.sources.some((s) => sourceMatchesUrl(s, url, selfOrigin));
    }
    case 'inline': {
      // javascript: URLs are checked against script-src-elem ("navigation" inline checks, CSP3 §6.7.3).
      const javascriptUrl = observation.kind === 'javascript-url';
      const list = effectiveList(rules, javascriptUrl ? 'script-src-elem' : observation.directive);
      if (!list) return true;
      const { sources } = list;
      const needsUnsafeHashes = javascriptUrl || observation.directive.endsWith('-attr');
      // Hashes allow handlers, style= attributes and javascript: URLs only beside 'unsafe-hashes'.
      if (
        sources.includes(`'${observation.hash}'`) &&
        (!needsUnsafeHashes || sources.includes(UNSAFE_HASHES))
      ) {
        return true;
      }
      // 'unsafe-inline' survives effectiveSources only when no nonce or hash is in the list.
      return sources.includes(UNSAFE_INLINE);
    }
    case 'eval': {
      const list = effectiveList(rules, 'script-src');
      return !list || list.sources.includes(UNSAFE_EVAL);
    }
    case 'wasm-eval': {
      const list = effectiveList(rules, 'script-src');
      return !list || list.sources.includes(UNSAFE_EVAL) || list.sources.includes(WASM_UNSAFE_EVAL);
    }
  }
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };

/** CSP3 "scheme-part match": a source scheme also matches its secure upgrade. */
function schemeMatches(source: string, url: string): boolean {
  if (source === url) return true;
  if (source === 'http:') return url === 'https:';
  if (source === 'ws:') return url === 'wss:' || url === 'http:' || url === 'https:';
  if (source === 'wss:') return url === 'https:';
  return false;
}

const HOST_SOURCE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[^:/]+)(?::(\d+|\*))?(\/.*)?$/i;

export function sourceMatchesUrl(source: string, url: URL, selfOrigin: string): boolean {
  if (source === NONE || isNonce(source) || isHash(source)) return false;
  if (source === SELF) {
    const self = new URL(selfOrigin);
    if (url.host === self.host && url.protocol === self.protocol) return true;
    // 'self' also matches the secure upgrade of the page's own host (https/wss for an http page).
    const sameHost = url.hostname === self.hostname;
    const port = (u: URL) => u.port || DEFAULT_PORTS[u.protocol] || '';
    const portOk = port(url) === port(self) || (port(url) === '443' && port(self) === '80');
    return sameHost && portOk && (url.protocol === 'https:' || url.protocol === 'wss:');
  }
  if (source.startsWith("'")) return false;
  if (isSchemeSource(source)) return schemeMatches(source.toLowerCase(), url.protocol);

  const m = HOST_SOURCE.exec(source);
  if (!m) return false;
  const [, scheme, host = '', port, path] = m;
  if (scheme !== undefined) {
    if (!schemeMatches(`${scheme.toLowerCase()}:`, url.protocol)) return false;
  } else {
    // No scheme: the protected resource's scheme (or its upgrade) is implied.
    const selfScheme = new URL(selfOrigin).protocol;
    if (!schemeMatches(selfScheme, url.protocol)) return false;
  }
  // Host sources never match data:, blob: and friends: those need a scheme source.
  if (!(url.protocol in DEFAULT_PORTS)) return false;
  const h = host.toLowerCase();
  if (h === '*') {
    // bare '*' matches any network scheme
  } else if (h.startsWith('*.')) {
    if (!url.hostname.endsWith(h.slice(1))) return false;
  } else if (url.hostname !== h) {
    return false;
  }
  const urlPort = url.port || DEFAULT_PORTS[url.protocol] || '';
  if (port === '*') {
    // any port
  } else if (port !== undefined) {
    if (port !== urlPort && !(port === '80' && urlPort === '443')) return false;
  } else {
    const sourceDefault = scheme ? DEFAULT_PORTS[`${scheme.toLowerCase()}:`] : DEFAULT_PORTS[url.protocol];
    if (urlPort !== sourceDefault && urlPort !== DEFAULT_PORTS[url.protocol]) return false;
  }
  if (path !== undefined && path !== '/') {
    const wanted = decodeURIComponent(path);
    const actual = decodeURIComponent(url.pathname);
    return wanted.endsWith('/') ? actual.startsWith(wanted) : actual === wanted;
  }
  return true;
}
