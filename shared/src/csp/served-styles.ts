// Which inline styles a document's server sent: the text of its <style> elements and the values of its
// style= attributes, read from the HTML of the response the crawler served to the browser. An inline
// style the page holds that is not among them was inserted or rewritten by a script (inline-provenance:
// the crawler marks it `inserted`, and no hash of it is trusted, see gather.ts). Pure.
//
// This is not an HTML parser and need not be one: a text wrongly found here (say, inside a comment) only
// keeps a hash, as before; a text missed here (an SVG <style> with entities, a named entity we do not
// decode) only gets 'unsafe-inline' for a style, which is the safe side for a page to keep working.

export interface ServedStyles {
  /** Text of each <style> element, exactly as the parser gives it (raw text, no entity decoding). */
  elements: Set<string>;
  /** Each style= attribute value, entity-decoded as the parser does. */
  attributes: Set<string>;
}

/** Named character references decoded in attribute values (the common ones; others are left as written). */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the character references an attribute value may hold (numeric ones and the common named). */
export function decodeAttributeValue(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);?/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED[ref] ?? whole;
  });
}

const STYLE_ELEMENT = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/** A style attribute inside a start tag: after whitespace, double-, single- or un-quoted. */
const STYLE_ATTRIBUTE = /<[a-zA-Z][^>]*?\sstyle\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;

/** The inline styles a server's HTML holds (see the file's comment for what "holds" is good for). */
export function servedStyles(html: string): ServedStyles {
  // The parser turns CR LF and lone CR into LF before anything else.
  const text = html.includes('\r') ? html.replace(/\r\n?/g, '\n') : html;
  const elements = new Set<string>();
  const attributes = new Set<string>();
  for (const match of text.matchAll(STYLE_ELEMENT)) elements.add(match[1]!);
  for (const match of text.matchAll(STYLE_ATTRIBUTE)) {
    attributes.add(decodeAttributeValue(match[1] ?? match[2] ?? match[3] ?? ''));
  }
  return { elements, attributes };
}

/**
 * Whether an inline style the page holds is one the server sent. Scripts are not judged this way: an
 * inserted script stays a hash or a nonce (strict mode), never 'unsafe-inline'.
 */
export function isServedStyle(
  served: ServedStyles,
  directive: 'style-src-elem' | 'style-src-attr',
  text: string,
): boolean {
  return directive === 'style-src-elem' ? served.elements.has(text) : served.attributes.has(text);
}
