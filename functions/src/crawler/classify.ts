// Turns what one page's capture gathered (violations, inline code from the DOM, network events, DOM
// targets) into the artifact's observations. Pure: the browser already classified most of it (the
// violation's effective directive); this maps, hashes and de-duplicates.
import { createHash } from 'node:crypto';
import { type Observation, type ObservedDirective, observedDirectiveSchema } from '@csp/shared/csp/artifact';
import { isServedStyle, type ServedStyles } from '@csp/shared/csp/served-styles';
import { normalizeInlineShape } from '@csp/shared/csp/stability';
import { type InstrumentItem, isTrustedTypesViolation } from './instrument';
import { withoutFragment } from './url-normalize';

/** A request seen through CDP Network events, in the page or in one of its workers. */
export interface NetworkRecord {
  /** CDP Network.ResourceType. */
  type: string;
  url: string;
  /** Which kind of target made it: the page (and its in-process frames) or a worker. */
  context: 'page' | 'worker' | 'shared_worker' | 'service_worker';
  /** Document (or worker script) the request was made for. */
  documentUrl: string;
}

/** The report sample browsers attach to inline violations ('report-sample'): the first 40 characters. */
export const SAMPLE_LENGTH = 40;

/** sha256 of the UTF-8 text, base64 — the CSP hash source without quotes. */
export function cspHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** Digest of the code's shape (normalizeInlineShape): equal for code that differs only in values. */
export function inlineShape(text: string): string {
  return createHash('sha256').update(normalizeInlineShape(text), 'utf8').digest('base64').slice(0, 16);
}

/**
 * What Chromium hashes for a javascript: URL: the whole URL, scheme included, percent-decoded (checked
 * against script-src-elem, and only with 'unsafe-hashes').
 */
export function javascriptUrlText(url: string): string {
  return url.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

const NETWORK_DIRECTIVES: Record<string, ObservedDirective> = {
  Script: 'script-src-elem',
  Stylesheet: 'style-src-elem',
  Image: 'img-src',
  Font: 'font-src',
  Media: 'media-src',
  TextTrack: 'media-src',
  XHR: 'connect-src',
  Fetch: 'connect-src',
  EventSource: 'connect-src',
  WebSocket: 'connect-src',
  Ping: 'connect-src',
  Manifest: 'manifest-src',
};

/** Directive of a network request, or null when CSP does not govern it (navigations, preflights, reports). */
export function networkDirective(record: NetworkRecord): ObservedDirective | null {
  // In a worker, importScripts() shows up as "Other": it is a script load under the worker's policy.
  if (record.context !== 'page' && (record.type === 'Other' || record.type === 'Script'))
    return 'script-src-elem';
  // Frame navigations are left to the frame-src violation: a Document request is also what <object> and
  // <embed> make, which are object-src.
  if (record.type === 'Document') return null;
  return NETWORK_DIRECTIVES[record.type] ?? null;
}

/** Whether a document URL belongs to the analysed origin (blob: URLs carry their creator's origin). */
export function isSiteDocument(documentUrl: string, siteOrigin: string): boolean {
  // about:srcdoc / about:blank frames inherit their parent's origin and policy.
  if (documentUrl.startsWith('about:')) return true;
  try {
    return new URL(documentUrl).origin === siteOrigin;
  } catch {
    return false;
  }
}

/** A violation's blocked URI as an observation URL: keywords stay apart, bare schemes become `data:`. */
function blockedUrl(blocked: string): string | null {
  if (blocked === '' || blocked === 'inline' || blocked === 'eval' || blocked === 'wasm-eval') return null;
  if (blocked.startsWith('trusted-types')) return null;
  if (/^[a-z][a-z0-9+.-]*$/i.test(blocked)) return `${blocked.toLowerCase()}:`;
  return blocked;
}

function observed(directive: string): ObservedDirective | null {
  const parsed = observedDirectiveSchema.safeParse(directive);
  return parsed.success ? parsed.data : null;
}

function trimSample(text: string): string {
  return text.slice(0, SAMPLE_LENGTH);
}

export interface ClassifyInput {
  /** The crawled page (requested URL): what observations are attributed to. */
  page: string;
  siteOrigin: string;
  items: readonly InstrumentItem[];
  network: readonly NetworkRecord[];
  /**
   * The inline styles the server's HTML of a document held (by document URL, without fragment); a style
   * of a document listed here that is not in it was written by a script. Unlisted documents (srcdoc and
   * about:blank frames, other origins) are not judged.
   */
  served?: ReadonlyMap<string, ServedStyles>;
}

export interface ClassifyResult {
  observations: Observation[];
  /** Inline violations we could not pair with code from the DOM (so no hash could be taken). */
  unmatchedInline: string[];
}

/** What makes two observations of one page the same (the artifact keeps one of each). */
export function observationKey(obs: Observation): string {
  return obs.type === 'url'
    ? `u ${obs.directive} ${obs.url}`
    : obs.type === 'inline'
      ? `i ${obs.directive} ${obs.hash}`
      : obs.type;
}

export function classifyPage(input: ClassifyInput): ClassifyResult {
  const out = new Map<string, Observation>();
  const add = (obs: Observation) => {
    const key = observationKey(obs);
    if (!out.has(key)) out.set(key, obs);
  };
  const page = input.page;

  // style= values applied by the parser or by setAttribute() are checked by CSP and so reported; values
  // written through CSSOM (el.style.x = …) change the attribute too but are never checked. Only the
  // reported ones need a hash: a style attribute is kept when a violation's sample is its beginning.
  const styleAttrSamples = new Set<string>();
  const inlineSamples: { directive: string; sample: string }[] = [];
  const items = input.items.filter((item) => !isTrustedTypesViolation(item));
  for (const item of items) {
    if (item.k !== 'violation' || item.blocked !== 'inline') continue;
    if (item.directive === 'style-src-attr') styleAttrSamples.add(item.sample);
    inlineSamples.push({ directive: item.directive, sample: item.sample });
  }

  const inlineTexts: { directive: string; text: string }[] = [];
  for (const item of items) {
    switch (item.k) {
      case 'violation': {
        const where = {
          page,
          ...(item.sourceFile ? { sourceFile: item.sourceFile } : {}),
          ...(item.line ? { line: item.line } : {}),
          ...(item.column ? { column: item.column } : {}),
        };
        if (item.blocked === 'eval') {
          add({ type: 'eval', ...(item.sample ? { sample: trimSample(item.sample) } : {}), ...where });
          break;
        }
        if (item.blocked === 'wasm-eval') {
          add({ type: 'wasm-eval', ...where });
          break;
        }
        const url = blockedUrl(item.blocked);
        const directive = observed(item.directive);
        if (url && directive) add({ type: 'url', directive, url, ...where });
        break;
      }
      case 'inline': {
        if (item.directive === 'style-src-attr' && !styleAttrSamples.has(trimSample(item.text))) break;
        inlineTexts.push({ directive: item.directive, text: item.text });
        add({
          type: 'inline',
          directive: item.directive,
          hash: cspHash(item.text),
          sample: trimSample(item.text),
          shape: inlineShape(item.text),
          kind: item.directive.endsWith('-attr') ? 'attribute' : 'element',
          page,
          ...(item.document !== page ? { sourceFile: item.document } : {}),
          ...(writtenByScript(input.served, item) ? { inserted: true as const } : {}),
        });
        break;
      }
      case 'javascript-url': {
        const text = javascriptUrlText(item.url);
        inlineTexts.push({ directive: 'script-src-elem', text });
        add({
          type: 'inline',
          directive: 'script-src-elem',
          hash: cspHash(text),
          sample: trimSample(text),
          shape: inlineShape(text),
          kind: 'javascript-url',
          page,
          ...(item.document !== page ? { sourceFile: item.document } : {}),
        });
        break;
      }
      case 'target': {
        const directive = observed(item.directive);
        if (directive && /^(https?|wss?|data|blob):/i.test(item.url)) {
          add({ type: 'url', directive, url: item.url.startsWith('data:') ? 'data:' : item.url, page });
        }
        break;
      }
    }
  }

  for (const record of input.network) {
    if (!isSiteDocument(record.documentUrl, input.siteOrigin)) continue;
    const directive = networkDirective(record);
    if (!directive) continue;
    const url = record.url.startsWith('data:') ? 'data:' : record.url;
    if (!/^(https?|wss?|data|blob):/i.test(url)) continue;
    add({
      type: 'url',
      directive,
      url,
      page,
      ...(record.context !== 'page' ? { sourceFile: record.documentUrl } : {}),
    });
  }

  const unmatchedInline = inlineSamples
    .filter(
      ({ directive, sample }) =>
        !inlineTexts.some((t) => t.text.startsWith(sample) && sameFamily(t.directive, directive)),
    )
    .map(({ directive, sample }) => `${directive}: ${sample}`);
  return { observations: [...out.values()], unmatchedInline };
}

/** An inline style of a served document that its server's HTML does not hold (scripts are not judged). */
function writtenByScript(
  served: ReadonlyMap<string, ServedStyles> | undefined,
  item: Extract<InstrumentItem, { k: 'inline' }>,
): boolean {
  if (!served || (item.directive !== 'style-src-elem' && item.directive !== 'style-src-attr')) return false;
  const styles = served.get(withoutFragment(item.document));
  return styles !== undefined && !isServedStyle(styles, item.directive, item.text);
}

function sameFamily(a: string, b: string): boolean {
  return a.slice(0, 6) === b.slice(0, 6);
}
