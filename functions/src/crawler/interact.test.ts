// The page script's own rules, checked in Node: which labels are paging controls, and that the script text
// carries its regular expressions intact (a backslash inside the template literal is lost, and once turned
// \s into "s" and \d into "d": "Next slide" and every page number went unpressed).
import { describe, expect, it } from 'vitest';
import { interactionSource, NEXT_LABEL, NEXT_TOKEN, NEXT_WORD, PAGE_NUMBER } from './interact';

describe('paging controls', () => {
  it.each(['Next', 'next page', 'Next slide', 'Show more', 'Load more', 'Older posts', '›', '»', '→'])(
    '"%s" is a next control',
    (label) => expect(NEXT_LABEL.test(label)).toBe(true),
  );
  it.each(['More', 'Nextcloud', 'Show', 'Next steps for our team'])('"%s" is not', (label) =>
    expect(NEXT_LABEL.test(label)).toBe(false),
  );
  it('an aria-label with the word, a rel or class token', () => {
    expect(NEXT_WORD.test('Go to the next slide')).toBe(true);
    expect(NEXT_WORD.test('Nextcloud')).toBe(false);
    for (const token of ['next', 'slick-next', 'btn next', 'next_button'])
      expect(NEXT_TOKEN.test(token)).toBe(true);
    for (const token of ['nextcloud', 'context', 'inext']) expect(NEXT_TOKEN.test(token)).toBe(false);
  });
  it('page numbers of up to three digits', () => {
    expect(['1', '12', '999'].every((n) => PAGE_NUMBER.test(n))).toBe(true);
    expect(['d', 'dd', '1000', 'Page 2'].some((n) => PAGE_NUMBER.test(n))).toBe(false);
  });
});

describe('the page script', () => {
  const source = interactionSource(1_000, { helpers: 'null' });
  it('parses, and holds no control character (what "\\b" becomes in a template literal)', () => {
    expect(() => new Function(`return ${source}`)).not.toThrow();
    const controls = [...source].filter((c) => c.charCodeAt(0) < 0x20 && c !== '\n' && c !== '\t');
    expect(controls).toEqual([]);
  });
  it('carries each regular expression as the Node one', () => {
    for (const re of [NEXT_LABEL, NEXT_WORD, NEXT_TOKEN, PAGE_NUMBER])
      expect(source).toContain(JSON.stringify(re.source));
  });
});
