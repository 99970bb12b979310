// Sitemaps (sitemaps.org): a <urlset> lists pages, a <sitemapindex> lists more sitemaps. Read with a
// streaming XML parser (saxes) as the bytes arrive, in time linear in the size, within the protocol's caps
// (URLs per file, bytes, length of a <loc>) and a nesting depth; a URL listed twice is kept once.
// Sitemaps in the wild are not always well-formed: the most common slip, a bare "&" in a URL, is repaired
// before parsing; any other error ends the reading, keeping the URLs read before it and saying so.
import { SaxesParser, type SaxesTagPlain } from 'saxes';

/**
 * The sitemaps protocol's limits per sitemap file, index files included (https://www.sitemaps.org/protocol.html):
 * "no more than 50,000 URLs and must be no larger than 50MB (52,428,800 bytes)", uncompressed.
 */
export const MAX_SITEMAP_URLS = 50_000;
export const MAX_SITEMAP_BYTES = 52_428_800;
/**
 * Element nesting read at most. A sitemap needs 4 levels (<urlset><url><image:image><image:loc>); 16 leaves
 * room for extensions. Deeper nesting stops reading the file: the parser keeps a record per open element, so
 * megabytes of nested elements would otherwise cost gigabytes.
 */
export const MAX_SITEMAP_DEPTH = 16;
/** A <loc> longer than this is skipped (the protocol: "must be less than 2,048 characters"). */
export const MAX_SITEMAP_LOC_CHARS = 2048;

export interface ParsedSitemap {
  /** The root element: pages, more sitemaps, or no sitemap at all (an HTML page, an empty body). */
  kind: 'urlset' | 'index' | 'other';
  /** http(s) URLs of the <loc> entries, in document order, each once. */
  locs: string[];
  /** Why the sitemap was not read whole, worded for the analysis' errors after "Sitemap <url>: ". */
  problems?: string[];
}

/** Thrown from the parser's handlers to leave the current chunk at once: reading is over. */
const STOP = Symbol('stop reading');

/** A character or entity reference, kept as is; any other "&" is bare and gets escaped. */
const REFERENCE = /&(?:#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z_:][\w.:-]{0,63});/y;
/** Where escaping may have to change something: an ampersand, or "<!" opening a CDATA section or comment. */
const AMPERSAND_OR_MARKUP = /&|<!/g;
/** Characters kept back at a chunk's end: more than the longest reference or markup opener, so those are decided whole. */
const HOLD_BACK = 72;

/**
 * Escapes bare "&" ("?a=1&b=2" written unescaped, the usual way a sitemap is not well-formed) as "&amp;",
 * outside CDATA sections and comments, where "&" is literal. Works chunk by chunk; each character is
 * looked at a bounded number of times, so the pass stays linear.
 */
class BareAmpersandEscaper {
  private carry = '';
  /** The end of the CDATA section or comment being skipped, if in one. */
  private closer: ']]>' | '-->' | null = null;

  push(text: string, final: boolean): string {
    const s = this.carry + text;
    const limit = final ? s.length : s.length - HOLD_BACK;
    const out: string[] = [];
    let copied = 0;
    let i = 0;
    while (i < limit) {
      if (this.closer !== null) {
        const end = s.indexOf(this.closer, i);
        if (end < 0) {
          i = limit;
          break;
        }
        i = end + this.closer.length;
        this.closer = null;
        continue;
      }
      AMPERSAND_OR_MARKUP.lastIndex = i;
      const match = AMPERSAND_OR_MARKUP.exec(s);
      if (match === null || match.index >= limit) {
        i = limit;
        break;
      }
      const at = match.index;
      if (match[0] === '<!') {
        if (s.startsWith('<![CDATA[', at)) this.closer = ']]>';
        else if (s.startsWith('<!--', at)) this.closer = '-->';
        i = at + 2;
        continue;
      }
      REFERENCE.lastIndex = at;
      if (REFERENCE.test(s)) {
        i = REFERENCE.lastIndex;
        continue;
      }
      out.push(s.slice(copied, at + 1), 'amp;');
      copied = at + 1;
      i = at + 1;
    }
    // i >= limit here: everything before i is decided; the rest waits for the next chunk.
    out.push(s.slice(copied, i));
    this.carry = s.slice(i);
    return out.join('');
  }
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

/**
 * Reads one sitemap document pushed in chunks (bytes as received, or text). Namespace prefixes are ignored
 * (<sm:loc> is a <loc>); only <loc> entries of <url>/<sitemap> count, not e.g. <image:loc>.
 */
export class SitemapReader {
  // No namespace processing: prefixes stay part of names and are never resolved, so an undeclared one is
  // no error. Entities declared in a DOCTYPE are not expanded (no entity expansion attacks).
  private readonly parser = new SaxesParser();
  /** UTF-8, as the protocol requires; a BOM is dropped; a character split across chunks is kept whole. */
  private readonly decoder = new TextDecoder();
  private readonly escaper = new BareAmpersandEscaper();
  private kind: ParsedSitemap['kind'] = 'other';
  private readonly locs: string[] = [];
  /** The same URLs, so a repeated <loc> costs a lookup (and is neither kept twice nor counted to the cap). */
  private readonly seen = new Set<string>();
  /** <loc> entries skipped for their length. */
  private tooLong = 0;
  private readonly problems: string[] = [];
  /** Local names of the open elements. */
  private readonly open: string[] = [];
  /** Text of the <loc> being read (null when not in one, or once it is too long), and its depth. */
  private loc: string | null = null;
  private inLoc = false;
  private locDepth = 0;
  /** Whitespace before the document (an XML declaration must come first): skipped, its lines counted. */
  private started = false;
  private skippedLines = 0;
  private stopped = false;

  constructor(private readonly maxUrls = MAX_SITEMAP_URLS) {
    this.parser.on('opentag', (tag) => this.onOpen(tag));
    this.parser.on('closetag', () => this.onClose());
    this.parser.on('cdata', (text) => this.onLocText(text));
    this.parser.on('error', (error) => this.onError(error));
  }

  /** Whether reading is over (error, URL cap, not a sitemap): the rest of the document need not be fetched. */
  get done(): boolean {
    return this.stopped;
  }

  /** URLs read so far. */
  get urlCount(): number {
    return this.locs.length;
  }

  /** Parses the next chunk; returns false once reading is over. */
  write(chunk: Uint8Array | string): boolean {
    if (this.stopped) return false;
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    this.feed(this.escaper.push(text, false));
    return !this.stopped;
  }

  /** The document is complete: end-of-document checks (unclosed elements are an error), then the result. */
  end(): ParsedSitemap {
    if (!this.stopped) this.feed(this.escaper.push(this.decoder.decode(), true));
    if (!this.stopped) {
      if (!this.started) {
        this.problems.push('empty document');
        this.stopped = true;
      } else this.run(() => this.parser.close());
    }
    return this.result();
  }

  /** The input was cut short (size cap, deadline, lost connection): what was read, with `reason` if given. */
  cut(reason?: string): ParsedSitemap {
    this.stopped = true;
    if (reason) this.problems.push(reason);
    return this.result();
  }

  private result(): ParsedSitemap {
    const result: ParsedSitemap = { kind: this.kind, locs: this.locs };
    const problems = [...this.problems];
    if (this.tooLong > 0) {
      problems.push(
        `${this.tooLong} <loc> entries longer than ${MAX_SITEMAP_LOC_CHARS.toLocaleString('en-US')} characters skipped`,
      );
    }
    if (problems.length > 0) result.problems = problems;
    return result;
  }

  private feed(text: string): void {
    if (!this.started) {
      const lead = /^\s*/.exec(text)![0];
      this.skippedLines += lead.split('\n').length - 1;
      text = text.slice(lead.length);
      if (text === '') return;
      this.started = true;
    }
    this.run(() => this.parser.write(text));
  }

  private run(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error !== STOP) throw error;
    }
  }

  private stop(problem?: string): never {
    this.stopped = true;
    if (problem) this.problems.push(problem);
    throw STOP;
  }

  private onOpen(tag: SaxesTagPlain): void {
    const name = localName(tag.name);
    if (this.open.length === 0) {
      if (name === 'urlset' || name === 'sitemapindex') this.kind = name === 'urlset' ? 'urlset' : 'index';
      else this.stop(`not a sitemap (its root element is <${tag.name}>)`);
    }
    this.open.push(name);
    if (this.open.length > MAX_SITEMAP_DEPTH) {
      this.stop(
        `elements nested deeper than ${MAX_SITEMAP_DEPTH} levels; reading stopped there (${this.locs.length} URLs read before)`,
      );
    }
    if (name !== 'loc' || this.inLoc) return;
    // A <loc> of a <url> or <sitemap> — or straight under the root, a common slip.
    const parent = this.open[this.open.length - 2];
    if (parent !== 'url' && parent !== 'sitemap' && this.open.length !== 2) return;
    this.inLoc = true;
    this.loc = '';
    this.locDepth = this.open.length;
    // Text is only gathered inside a <loc>: the parser then keeps nothing else (memory stays small).
    this.parser.on('text', (text) => this.onLocText(text));
  }

  private onLocText(text: string): void {
    if (this.loc === null) return;
    this.loc += text;
    // Past the cap (blanks around the URL aside) the entry is skipped: no need to keep gathering it.
    if (this.loc.length > MAX_SITEMAP_LOC_CHARS && this.loc.trim().length > MAX_SITEMAP_LOC_CHARS) {
      this.loc = null;
    }
  }

  private onClose(): void {
    if (this.inLoc && this.open.length === this.locDepth) {
      const url = this.loc?.trim() ?? null;
      this.inLoc = false;
      this.loc = null;
      this.parser.off('text');
      if (url === null || url.length > MAX_SITEMAP_LOC_CHARS) this.tooLong += 1;
      else if (/^https?:\/\//i.test(url) && !this.seen.has(url)) {
        if (this.locs.length >= this.maxUrls) {
          this.stop(
            `more than ${this.maxUrls.toLocaleString('en-US')} URLs (the sitemaps protocol's limit); the rest are ignored`,
          );
        }
        this.seen.add(url);
        this.locs.push(url);
      }
    }
    this.open.pop();
  }

  private onError(error: Error): void {
    // saxes reports "line:column: message."
    const match = /^(\d+):\d+: (.*?)\.?$/.exec(error.message);
    const where = match ? `line ${Number(match[1]) + this.skippedLines}: ${match[2]}` : error.message;
    this.stop(`not well-formed XML (${where}); ${this.locs.length} URLs read before the error`);
  }
}

/** Whether text is XML (a sitemap document) rather than a list of URLs. */
export function isXml(text: string): boolean {
  return /^\s*(?:\uFEFF)?</.test(text);
}

/** A whole sitemap document given as text. */
export function parseSitemap(xml: string, maxUrls = MAX_SITEMAP_URLS): ParsedSitemap {
  const reader = new SitemapReader(maxUrls);
  reader.write(xml);
  return reader.end();
}

/**
 * Uploaded sitemap content: the XML text of a sitemap (standalone analysis screen), or one sitemap URL per
 * line (the domain screen's advanced form). Lines that are not http(s) URLs are ignored.
 */
export function parseSitemapContent(text: string): { sitemap: ParsedSitemap | null; sitemapUrls: string[] } {
  if (isXml(text)) return { sitemap: parseSitemap(text), sitemapUrls: [] };
  const sitemapUrls: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const candidate = line.trim();
    if (!candidate) continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') sitemapUrls.push(url.href);
    } catch {}
  }
  return { sitemap: null, sitemapUrls };
}
