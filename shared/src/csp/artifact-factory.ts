// Test-data factory for crawl artifacts: seeded, so a failing property test or a benchmark run can be
// reproduced exactly. Not used by production code.
import type { CrawlArtifact, Observation, ObservedDirective, PageArtifact } from './artifact';

/** mulberry32: tiny, fast, good enough to spread test data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A syntactically valid `sha256-…` (43 base64 characters and one '=' of padding, like a real digest). */
export function fakeSha256(random: () => number): string {
  let s = 'sha256-';
  for (let i = 0; i < 43; i++) s += BASE64[Math.floor(random() * 64)];
  return `${s}=`;
}

const URL_DIRECTIVES: readonly ObservedDirective[] = [
  'script-src-elem',
  'style-src-elem',
  'img-src',
  'font-src',
  'media-src',
  'connect-src',
  'frame-src',
  'worker-src',
  'manifest-src',
  'object-src',
  'form-action',
  'base-uri',
  'child-src',
];

/** Where real sites use data: and blob: URLs (never for scripts, forms or <base>). */
const DATA_DIRECTIVES = new Set<ObservedDirective>(['img-src', 'font-src', 'media-src', 'style-src-elem']);
const BLOB_DIRECTIVES = new Set<ObservedDirective>(['img-src', 'media-src', 'worker-src', 'connect-src']);

export interface SyntheticOptions {
  seed?: number;
  origin?: string;
  pages?: number;
  observations?: number;
  /** Number of third-party origins (the site's own origin comes on top). */
  origins?: number;
  /** Distinct inline hashes, shared between pages (templates repeat inline code). */
  inlineHashes?: number;
}

/**
 * A crawl with a realistic mix: mostly same-origin and third-party URLs over every URL directive, some
 * http:, ws(s):, data: and blob: ones, inline script/style/handler/attribute hashes, a little eval and wasm.
 */
export function syntheticArtifact(options: SyntheticOptions = {}): CrawlArtifact {
  const random = seededRandom(options.seed ?? 1);
  const origin = options.origin ?? 'https://www.example.com';
  const pageCount = options.pages ?? 20;
  const total = options.observations ?? 500;
  const originCount = options.origins ?? 20;
  const hashCount = options.inlineHashes ?? 50;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  const thirdParty: string[] = [];
  for (let i = 0; i < originCount; i++) {
    const scheme = random() < 0.9 ? 'https' : 'http';
    const port = random() < 0.1 ? `:${8000 + i}` : '';
    thirdParty.push(`${scheme}://cdn${i}.thirdparty${i % 7}.example${port}`);
  }
  const hashes = Array.from({ length: hashCount }, () => fakeSha256(random));
  const pages: PageArtifact[] = [];
  for (let p = 0; p < pageCount; p++) {
    const url = `${origin}/page/${p}`;
    pages.push({ url, finalUrl: url, status: 200, observations: [] });
  }

  for (let i = 0; i < total; i++) {
    const page = pick(pages);
    const roll = random();
    let obs: Observation;
    if (roll < 0.12 && hashes.length > 0) {
      const directive = pick([
        'script-src-elem',
        'style-src-elem',
        'script-src-attr',
        'style-src-attr',
      ] as const);
      const kind = directive.endsWith('-attr') ? 'attribute' : 'element';
      obs = { type: 'inline', directive, hash: pick(hashes), sample: 'x()', kind, page: page.url };
    } else if (roll < 0.122 && hashes.length > 0) {
      // javascript: URLs, as the crawler records them (script-src-elem, kind javascript-url).
      obs = {
        type: 'inline',
        directive: 'script-src-elem',
        hash: pick(hashes),
        kind: 'javascript-url',
        page: page.url,
      };
    } else if (roll < 0.125) {
      obs = { type: 'eval', sample: 'eval(x)', page: page.url };
    } else if (roll < 0.127) {
      obs = { type: 'wasm-eval', page: page.url };
    } else {
      const directive = pick(URL_DIRECTIVES);
      const kind = random();
      let url: string;
      if (kind < 0.35) url = `${origin}/assets/${i}.bin?v=${i % 13}`;
      else if (kind < 0.9) url = `${pick(thirdParty)}/lib/${i}/file.js#frag`;
      else if (directive === 'connect-src' && kind < 0.95) {
        url = `${random() < 0.5 ? 'wss' : 'ws'}://socket${i % 3}.example/live`;
      } else if (DATA_DIRECTIVES.has(directive) && kind < 0.97) url = `data:image/png;base64,iVBORw0KGgo${i}`;
      else if (BLOB_DIRECTIVES.has(directive)) url = `blob:${origin}/${i}-uuid`;
      else url = `${origin}/other/${i}`;
      obs = { type: 'url', directive, url, page: page.url };
    }
    page.observations.push(obs);
  }
  return { origin, pages, errors: [] };
}

/** An artifact of one site from path → observations; each observation gets its page's URL. */
export function artifactOfPages(origin: string, pages: Record<string, Observation[]>): CrawlArtifact {
  return {
    origin,
    errors: [],
    pages: Object.entries(pages).map(([path, observations]) => ({
      url: `${origin}${path}`,
      finalUrl: `${origin}${path}`,
      status: 200,
      observations: observations.map((o) => ({ ...o, page: `${origin}${path}` })),
    })),
  };
}
