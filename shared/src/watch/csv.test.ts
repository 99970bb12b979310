// CSV cells as a spreadsheet will read them: RFC 4180 quoting survives a round trip through a strict parser,
// and every cell that a spreadsheet would run as a formula is neutralised with a leading apostrophe.
import { describe, expect, it } from 'vitest';
import { CSV_CELL_MAX_CHARS, csvCell, csvDocument } from './csv';
import { parseCsv } from './csv-reader';

describe('csv', () => {
  it('quotes commas, quotes and line breaks (RFC 4180) and leaves plain text alone', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(false)).toBe('false');
  });

  it('neutralises cells that start like a formula', () => {
    for (const evil of ['=HYPERLINK("http://x.test","y")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx']) {
      const cell = csvCell(evil);
      const [[read]] = parseCsv(cell) as [[string]];
      expect(read).toBe(`'${evil}`);
    }
    // Not at the start: nothing to neutralise.
    expect(csvCell('https://a.test/?q==1')).toBe('https://a.test/?q==1');
    expect(csvCell('sha384-abc')).toBe('sha384-abc');
  });

  it('cuts a cell longer than a spreadsheet keeps, and says so', () => {
    const cell = csvCell('x'.repeat(CSV_CELL_MAX_CHARS + 10));
    expect(cell.length).toBeLessThanOrEqual(CSV_CELL_MAX_CHARS);
    expect(cell.endsWith('[cut: see the JSON export]')).toBe(true);
  });

  it('writes a BOM, a header row and CRLF records that parse back to the same values', () => {
    const text = csvDocument(['a', 'b'] as const, [
      { a: 'x, "y"', b: 'line1\nline2' },
      { a: '=1+1', b: null },
    ]);
    expect(text.startsWith('\uFEFFa,b\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text.slice(1))).toEqual([
      ['a', 'b'],
      ['x, "y"', 'line1\nline2'],
      ["'=1+1", ''],
    ]);
  });
});
