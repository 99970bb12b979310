// Gathering, the generator's first step: one pass over every observation of the crawl, collecting the
// sources each directive needs (origins, schemes, hashes), the keywords it must carry (eval, WebAssembly,
// 'unsafe-hashes') and the inline code that changes on every load. What it sees but cannot allow becomes a
// finding here, as it is seen (a URL under an inline-only directive, an unsupported scheme, an origin no
// source can express, an invalid hash); judging the policy is the checks' (checks/). Pure.
import type { CrawlArtifact, ObservedDirective } from './artifact';
import { type Directive, SELF } from './directives';
import { addGeneratorFinding, type PolicyFinding } from './finding';
import { authorityPrefix, hashSource, isIgnoredScheme, originOf, schemeOf, type UrlSource } from './source';

/**
 * Where a URL observation's source goes. Element sources land in script-src / style-src rather than
 * script-src-elem / style-src-elem: one directive serves browsers with and without -elem support, and
 * the -elem/-attr split would only be needed if the two differed — they differ only for attribute
 * hashes, which get their own -attr directive. null: a URL under an -attr directive is not meaningful.
 */
const URL_TARGET: Record<ObservedDirective, Directive | null> = {
  'script-src-elem': 'script-src',
  'script-src': 'script-src',
  'script-src-attr': null,
  'style-src-elem': 'style-src',
  'style-src': 'style-src',
  'style-src-attr': null,
  'img-src': 'img-src',
  'font-src': 'font-src',
  'media-src': 'media-src',
  'connect-src': 'connect-src',
  'frame-src': 'frame-src',
  'child-src': 'child-src',
  'worker-src': 'worker-src',
  'manifest-src': 'manifest-src',
  'object-src': 'object-src',
  'form-action': 'form-action',
  'base-uri': 'base-uri',
  'default-src': 'default-src',
};

/** Navigation/document targets are not requests: upgrade-insecure-requests does not rewrite them. */
const NOT_UPGRADED = new Set<Directive>(['form-action', 'base-uri']);

/** Where each script hash was seen (for the budget's per-page-only trade). */
export type ScriptHashPages = Map<string, Set<string>>;

export interface Gathered {
  /** Emitted directive → deduplicated sources from URL observations and inline element hashes. */
  needs: Map<Directive, Set<string>>;
  /** Hashes of inline <script> bodies and of javascript: URLs (both checked against script-src-elem). */
  inlineScriptHashes: Set<string>;
  javascriptUrlHashes: Set<string>;
  scriptAttrHashes: Set<string>;
  styleAttrHashes: Set<string>;
  evalSeen: number;
  wasmSeen: number;
  observations: number;
  findings: Map<string, PolicyFinding>;
  /** Inline code marked unstable (and styles a script wrote), by directive + shape (never hashed). */
  unstableScripts: Map<string, UnstableItem>;
  unstableStyleElements: Map<string, UnstableItem>;
  unstableStyleAttributes: Map<string, UnstableItem>;
  scriptHashPages: ScriptHashPages;
}

/**
 * Why no hash of an inline item can hold: `changed`, its text differed when the page was loaded again
 * (another viewport, a fresh context); `inserted`, a script wrote it (not in the server's HTML).
 */
export type UnstableReason = 'changed' | 'inserted';

export interface UnstableItem {
  directive: string;
  sample: string;
  pages: Set<string>;
  why: Set<UnstableReason>;
  /** Only this engine had it (seen in its verification, never in the crawl). */
  engine?: 'firefox';
}

/** One pass over every observation: resources → sources, with caches so the cost is per origin, not per URL. */
export function gather(artifact: CrawlArtifact, self: string, secure: boolean): Gathered {
  const needs = new Map<Directive, Set<string>>();
  const findings = new Map<string, PolicyFinding>();
  const g: Gathered = {
    needs,
    inlineScriptHashes: new Set(),
    javascriptUrlHashes: new Set(),
    scriptAttrHashes: new Set(),
    styleAttrHashes: new Set(),
    evalSeen: 0,
    wasmSeen: 0,
    observations: 0,
    findings,
    unstableScripts: new Map(),
    unstableStyleElements: new Map(),
    unstableStyleAttributes: new Map(),
    scriptHashPages: new Map(),
  };
  const need = (directive: Directive, source: string) => {
    let sources = needs.get(directive);
    if (!sources) {
      sources = new Set();
      needs.set(directive, sources);
    }
    sources.add(source);
  };
  // One cache per upgrade setting: form-action and base-uri are not upgraded, fetches are.
  const originCaches = { upgraded: new Map<string, UrlSource>(), asIs: new Map<string, UrlSource>() };
  const upgradedOrigins = new Set<string>();
  const selfPageCache = new Map<string, boolean>();
  const seenHashes = new Map<string, string | undefined>();

  for (const page of artifact.pages) {
    for (const obs of page.observations) {
      g.observations++;
      switch (obs.type) {
        case 'url': {
          const directive = URL_TARGET[obs.directive];
          if (directive === null) {
            addGeneratorFinding(findings, {
              severity: 'info',
              directive: obs.directive,
              code: 'unexpected-observation',
              value: obs.url,
              description: `A URL was reported under ${obs.directive}, which governs inline code only; it was not added.`,
            });
            break;
          }
          const scheme = schemeOf(obs.url);
          let result: UrlSource;
          if (scheme === 'data:' || scheme === 'blob:') {
            // Decided by the scheme alone: never parse a data: URL (it can be megabytes of base64).
            result = { kind: 'source', source: scheme };
          } else if (
            scheme !== undefined &&
            scheme !== 'http:' &&
            scheme !== 'https:' &&
            scheme !== 'ws:' &&
            scheme !== 'wss:'
          ) {
            result = { kind: 'ignored', scheme };
          } else {
            const upgrade = secure && !NOT_UPGRADED.has(directive);
            const cache = upgrade ? originCaches.upgraded : originCaches.asIs;
            const key = authorityPrefix(obs.url) ?? obs.url;
            let cached = cache.get(key);
            if (cached === undefined) {
              cached = originOf(key, upgrade);
              cache.set(key, cached);
            }
            result = cached;
          }
          if (result.kind === 'ignored') {
            if (!isIgnoredScheme(result.scheme)) {
              addGeneratorFinding(findings, {
                severity: 'info',
                directive,
                code: 'unsupported-scheme',
                value: result.scheme,
                description: `Resources with the ${result.scheme} scheme are not allowed: only data: and blob: are written as scheme sources.`,
              });
            }
            break;
          }
          if (result.kind === 'unrepresentable') {
            addGeneratorFinding(findings, {
              severity: 'medium',
              directive,
              code: 'unrepresentable-source',
              value: authorityPrefix(obs.url) ?? obs.url.slice(0, 200),
              description: `This resource stays blocked: ${result.reason}.`,
            });
            break;
          }
          let source = result.source;
          if (result.origin !== undefined && result.origin === self) {
            // 'self' is the origin of the page the policy is served on; only equal to `self` on its pages.
            let onSelf = selfPageCache.get(obs.page);
            if (onSelf === undefined) {
              onSelf = pageOrigin(obs.page) === self;
              selfPageCache.set(obs.page, onSelf);
            }
            if (onSelf) source = SELF;
          }
          if (result.upgraded && !upgradedOrigins.has(source)) {
            upgradedOrigins.add(source);
            addGeneratorFinding(findings, {
              severity: 'info',
              directive: 'upgrade-insecure-requests',
              code: 'insecure-upgraded',
              value: source,
              description:
                'Loaded over http: on an https site. upgrade-insecure-requests makes the browser fetch it over https:, so the https: origin is allowed; make sure it is served there.',
            });
          }
          need(directive, source);
          break;
        }
        case 'inline': {
          // A style a script inserted or rewrote is as untrustworthy to hash as one that changed between
          // loads: another engine, version or state writes another text. Scripts are never judged by who
          // wrote them (an unstable script stays blocked in allowlist mode; strict mode's nonce covers it).
          const insertedStyle = obs.inserted === true && obs.directive.startsWith('style');
          if (obs.unstable || insertedStyle) {
            const into = obs.directive.startsWith('style')
              ? obs.directive === 'style-src-attr'
                ? g.unstableStyleAttributes
                : g.unstableStyleElements
              : g.unstableScripts;
            const key = `${obs.directive} ${obs.shape ?? obs.hash}`;
            let item = into.get(key);
            if (!item) {
              item = { directive: obs.directive, sample: obs.sample ?? '', pages: new Set(), why: new Set() };
              if (obs.engine) item.engine = obs.engine;
              into.set(key, item);
            } else if (item.engine !== obs.engine) delete item.engine;
            item.pages.add(obs.page);
            if (obs.unstable) item.why.add('changed');
            if (insertedStyle) item.why.add('inserted');
            break;
          }
          let source = seenHashes.get(obs.hash);
          if (!seenHashes.has(obs.hash)) {
            source = hashSource(obs.hash);
            seenHashes.set(obs.hash, source);
          }
          if (source === undefined) {
            addGeneratorFinding(findings, {
              severity: 'medium',
              directive: obs.directive,
              code: 'invalid-hash',
              value: obs.hash.slice(0, 120),
              description:
                'The crawler recorded an inline hash that is not a valid CSP hash; that inline code stays blocked.',
            });
            break;
          }
          if (obs.directive.startsWith('script')) {
            let pages = g.scriptHashPages.get(source);
            if (!pages) {
              pages = new Set();
              g.scriptHashPages.set(source, pages);
            }
            pages.add(obs.page);
          }
          if (obs.kind === 'javascript-url') {
            // CSP3 checks javascript: navigations as inline code of type "navigation" against
            // script-src-elem (→ script-src), and a hash counts there only beside 'unsafe-hashes'.
            g.javascriptUrlHashes.add(source);
            g.inlineScriptHashes.add(source);
            need('script-src', source);
            break;
          }
          switch (obs.directive) {
            case 'script-src-elem':
              g.inlineScriptHashes.add(source);
              need('script-src', source);
              break;
            case 'style-src-elem':
              need('style-src', source);
              break;
            case 'script-src-attr':
              g.scriptAttrHashes.add(source);
              break;
            case 'style-src-attr':
              g.styleAttrHashes.add(source);
              break;
          }
          break;
        }
        case 'eval':
          g.evalSeen++;
          break;
        case 'wasm-eval':
          g.wasmSeen++;
          break;
      }
    }
  }
  return g;
}

function pageOrigin(page: string): string | undefined {
  try {
    return new URL(page).origin;
  } catch {
    return undefined;
  }
}
