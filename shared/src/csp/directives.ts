// The closed vocabulary of CSP: directives (with their CSP3 fallback chains and what they govern), keywords,
// and the predicates every other module uses to tell a nonce, a hash or a keyword from a host source.
import * as z from 'zod';
import { byCodeUnits } from '../text/order';

type DirectiveKind = 'fetch' | 'document' | 'navigation' | 'reporting' | 'other';

interface DirectiveSpec {
  readonly kind: DirectiveKind;
  /** Directives a browser consults, in order, when this one is absent (CSP3 fallback list); [] for none. */
  readonly fallbacks: readonly string[];
  /** What the directive governs, for people reading the table and the UI. */
  readonly governs: string;
}

/**
 * The directive table, in the order policies are written (stable output for tests and diffs).
 * Fallbacks follow the CSP3 fallback list (§6.8.3): -elem/-attr fall back to script-src/style-src, workers go
 * worker-src → child-src → script-src, frames go frame-src → child-src, every other fetch directive goes
 * straight to default-src. Whole chains are spelled out because they are not composable: worker-src passes
 * through child-src to script-src, while child-src on its own falls back to default-src only.
 * Navigation and document directives never fall back.
 */
export const DIRECTIVE_TABLE = {
  'default-src': { kind: 'fetch', fallbacks: [], governs: 'every fetch directive that is not set' },
  'script-src': { kind: 'fetch', fallbacks: ['default-src'], governs: 'scripts, inline code, eval' },
  'script-src-elem': {
    kind: 'fetch',
    fallbacks: ['script-src', 'default-src'],
    governs: '<script> elements (src and inline)',
  },
  'script-src-attr': {
    kind: 'fetch',
    fallbacks: ['script-src', 'default-src'],
    governs: 'on*= event handlers, javascript: URLs',
  },
  'style-src': { kind: 'fetch', fallbacks: ['default-src'], governs: 'stylesheets and inline styles' },
  'style-src-elem': {
    kind: 'fetch',
    fallbacks: ['style-src', 'default-src'],
    governs: '<style> and <link rel=stylesheet>',
  },
  'style-src-attr': { kind: 'fetch', fallbacks: ['style-src', 'default-src'], governs: 'style= attributes' },
  'img-src': { kind: 'fetch', fallbacks: ['default-src'], governs: 'images, favicons, CSS images' },
  'font-src': { kind: 'fetch', fallbacks: ['default-src'], governs: 'web fonts' },
  'connect-src': {
    kind: 'fetch',
    fallbacks: ['default-src'],
    governs: 'fetch, XHR, WebSocket, EventSource, beacons',
  },
  'media-src': { kind: 'fetch', fallbacks: ['default-src'], governs: '<audio>, <video>, <track>' },
  'object-src': { kind: 'fetch', fallbacks: ['default-src'], governs: '<object>, <embed>' },
  'frame-src': { kind: 'fetch', fallbacks: ['child-src', 'default-src'], governs: '<iframe>, <frame>' },
  'child-src': { kind: 'fetch', fallbacks: ['default-src'], governs: 'frames and workers (CSP2)' },
  'worker-src': {
    kind: 'fetch',
    fallbacks: ['child-src', 'script-src', 'default-src'],
    governs: 'workers, shared and service workers',
  },
  'manifest-src': { kind: 'fetch', fallbacks: ['default-src'], governs: 'web app manifests' },
  'base-uri': { kind: 'document', fallbacks: [], governs: '<base href>' },
  sandbox: { kind: 'document', fallbacks: [], governs: 'sandbox flags for the document' },
  'form-action': { kind: 'navigation', fallbacks: [], governs: 'form submission targets' },
  'frame-ancestors': { kind: 'navigation', fallbacks: [], governs: 'who may embed the page' },
  'upgrade-insecure-requests': { kind: 'other', fallbacks: [], governs: 'rewrites http: requests to https:' },
  'require-trusted-types-for': { kind: 'other', fallbacks: [], governs: 'DOM XSS sinks' },
  'trusted-types': { kind: 'other', fallbacks: [], governs: 'Trusted Types policy names' },
  'report-uri': { kind: 'reporting', fallbacks: [], governs: 'where violation reports are POSTed' },
  'report-to': { kind: 'reporting', fallbacks: [], governs: 'Reporting API endpoint group' },
} as const satisfies Record<string, DirectiveSpec>;

export type Directive = keyof typeof DIRECTIVE_TABLE;
export const DIRECTIVES = Object.keys(DIRECTIVE_TABLE) as Directive[];
export const directiveSchema = z.enum(DIRECTIVES as [Directive, ...Directive[]]);

export const FETCH_DIRECTIVES = DIRECTIVES.filter((d) => DIRECTIVE_TABLE[d].kind === 'fetch');

const DIRECTIVE_RANK = new Map<string, number>(DIRECTIVES.map((d, i) => [d, i]));

export function isDirective(name: string): name is Directive {
  return DIRECTIVE_RANK.has(name);
}

export function isFetchDirective(name: string): boolean {
  return isDirective(name) && DIRECTIVE_TABLE[name].kind === 'fetch';
}

/** Script directives: the ones 'strict-dynamic' and the XSS checks care about. */
export const SCRIPT_DIRECTIVES: readonly Directive[] = ['script-src', 'script-src-elem', 'script-src-attr'];
export const STYLE_DIRECTIVES: readonly Directive[] = ['style-src', 'style-src-elem', 'style-src-attr'];

/** The directive itself followed by every directive a browser falls back to, in order. */
export function fallbackChain(directive: Directive): Directive[] {
  return [directive, ...(DIRECTIVE_TABLE[directive].fallbacks as readonly Directive[])];
}

const CHAINS = new Map<Directive, Directive[]>(DIRECTIVES.map((d) => [d, fallbackChain(d)]));

/**
 * The directive a browser actually consults for `directive` under a policy that sets `present` directives;
 * undefined when none of the chain is set (the policy then does not restrict that kind at all).
 */
export function effectiveDirective(
  directive: Directive,
  present: (name: Directive) => boolean,
): Directive | undefined {
  for (const candidate of CHAINS.get(directive) ?? [directive]) {
    if (present(candidate)) return candidate;
  }
  return undefined;
}

/** Source keywords, quoted exactly as they appear in a header. */
export const KEYWORDS = [
  "'self'",
  "'none'",
  "'strict-dynamic'",
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'unsafe-hashes'",
  "'wasm-unsafe-eval'",
  "'report-sample'",
] as const;
export const keywordSchema = z.enum(KEYWORDS);
export type Keyword = z.infer<typeof keywordSchema>;

export const SELF = "'self'" satisfies Keyword;
export const NONE = "'none'" satisfies Keyword;
export const STRICT_DYNAMIC = "'strict-dynamic'" satisfies Keyword;
export const UNSAFE_INLINE = "'unsafe-inline'" satisfies Keyword;
export const UNSAFE_EVAL = "'unsafe-eval'" satisfies Keyword;
export const UNSAFE_HASHES = "'unsafe-hashes'" satisfies Keyword;
export const WASM_UNSAFE_EVAL = "'wasm-unsafe-eval'" satisfies Keyword;
export const REPORT_SAMPLE = "'report-sample'" satisfies Keyword;

const KEYWORD_SET = new Set<string>(KEYWORDS);

export function isKeyword(source: string): source is Keyword {
  return KEYWORD_SET.has(source);
}

// base64-value from CSP3 §2.3.1: base64 or base64url characters, at most two '=' of padding.
const BASE64_VALUE = '[A-Za-z0-9+/_-]+={0,2}';
const NONCE_PATTERN = new RegExp(`^'nonce-${BASE64_VALUE}'$`);
const HASH_PATTERN = new RegExp(`^'sha(?:256|384|512)-${BASE64_VALUE}'$`);
/** A hash as the crawler records it: the source without quotes (`sha256-…`). */
export const BARE_HASH_PATTERN = new RegExp(`^sha(?:256|384|512)-${BASE64_VALUE}$`);
/** A nonce value (what goes after `nonce-`): base64/base64url charset, long enough not to be guessable. */
export const NONCE_VALUE_PATTERN = new RegExp(`^(?=.{16,})${BASE64_VALUE}$`);

/** `'nonce-…'` with a valid base64 value. */
export function isNonce(source: string): boolean {
  return NONCE_PATTERN.test(source);
}

/** `'sha256-…'`, `'sha384-…'` or `'sha512-…'` with a valid base64 value. */
export function isHash(source: string): boolean {
  return HASH_PATTERN.test(source);
}

/** Scheme source such as `data:` or `https:` (CSP3 scheme-source: scheme followed by a colon, nothing else). */
export function isSchemeSource(source: string): boolean {
  return /^[a-z][a-z0-9+.-]*:$/i.test(source);
}

/** Anything unquoted that is not a scheme source: a host source (`https://cdn.example`, `*.example`, …). */
export function isHostSource(source: string): boolean {
  return !source.startsWith("'") && !isSchemeSource(source);
}

/**
 * Sources a CSP3 browser ignores in this directive's list — the "effective policy" normalisation that
 * csp_evaluator also does: 'unsafe-inline' beside a nonce or hash, and, under 'strict-dynamic', every
 * host/scheme source, 'self' and 'unsafe-inline' (they stay only as fallbacks for older browsers).
 */
export function ignoredSources(directive: string, sources: readonly string[]): Set<string> {
  const ignored = new Set<string>();
  const scriptLike = directive === 'default-src' || SCRIPT_DIRECTIVES.includes(directive as Directive);
  const inlineLike = scriptLike || STYLE_DIRECTIVES.includes(directive as Directive);
  if (!inlineLike) return ignored;
  if (sources.some((s) => isNonce(s) || isHash(s)) && sources.includes(UNSAFE_INLINE)) {
    ignored.add(UNSAFE_INLINE);
  }
  if (scriptLike && sources.includes(STRICT_DYNAMIC)) {
    for (const s of sources) {
      if (s === SELF || s === UNSAFE_INLINE || isHostSource(s) || isSchemeSource(s)) ignored.add(s);
    }
  }
  return ignored;
}

/** The sources a CSP3 browser honours in this directive (see ignoredSources). */
export function effectiveSources(directive: string, sources: readonly string[]): string[] {
  const ignored = ignoredSources(directive, sources);
  return ignored.size === 0 ? [...sources] : sources.filter((s) => !ignored.has(s));
}

const KEYWORD_RANK = new Map<string, number>(KEYWORDS.map((k, i) => [k, i]));

/**
 * Rank of a source within a directive: keywords (table order), nonces, hashes, scheme sources, host sources.
 * Keeping one order makes generated policies byte-stable, so a re-crawl diff shows only real changes.
 */
function sourceGroup(source: string): number {
  if (KEYWORD_RANK.has(source)) return 0;
  if (isNonce(source)) return 1;
  if (isHash(source)) return 2;
  if (isSchemeSource(source)) return 3;
  if (source.startsWith("'")) return 4; // unknown keyword, kept but last among quoted things
  return 5;
}

export function compareSources(a: string, b: string): number {
  const ga = sourceGroup(a);
  const gb = sourceGroup(b);
  if (ga !== gb) return ga - gb;
  if (ga === 0) return (KEYWORD_RANK.get(a) ?? 0) - (KEYWORD_RANK.get(b) ?? 0);
  return byCodeUnits(a, b);
}

/**
 * Sources deduplicated and in compareSources order. Classifies each source once instead of in every
 * comparison: policies can hold thousands of hashes, and the classification is a regex.
 */
export function sortSources(sources: Iterable<string>): string[] {
  const keyed = [...new Set(sources)].map((s) => {
    const group = sourceGroup(s);
    return { s, group, rank: group === 0 ? (KEYWORD_RANK.get(s) ?? 0) : 0 };
  });
  keyed.sort((a, b) => a.group - b.group || a.rank - b.rank || byCodeUnits(a.s, b.s));
  return keyed.map((k) => k.s);
}

/** Table order for known directives, then unknown (custom) ones alphabetically. */
export function compareDirectives(a: string, b: string): number {
  const ra = DIRECTIVE_RANK.get(a);
  const rb = DIRECTIVE_RANK.get(b);
  if (ra !== undefined && rb !== undefined) return ra - rb;
  if (ra !== undefined) return -1;
  if (rb !== undefined) return 1;
  return byCodeUnits(a, b);
}
