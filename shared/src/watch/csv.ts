// CSV for spreadsheets, safe with attacker text in its cells (script URLs, inline samples, header values are
// what a site or its visitors chose). RFC 4180: fields with a comma, a quote, CR or LF are quoted, quotes
// doubled, records end in CRLF. Formula injection (CWE-1236, OWASP "CSV injection"): a cell that starts with
// = + - @, a tab or CR is a formula to Excel, LibreOffice and Sheets when the file is opened, so such a cell
// gets a leading apostrophe, which the spreadsheet shows as text and does not run.

/** Excel keeps at most 32,767 characters in a cell and cuts (or refuses) more; we cut first, and say so. */
export const CSV_CELL_MAX_CHARS = 32_000;
const CUT_NOTE = ' [cut: see the JSON export]';
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (text.length > CSV_CELL_MAX_CHARS) text = text.slice(0, CSV_CELL_MAX_CHARS - CUT_NOTE.length) + CUT_NOTE;
  // Numbers we write are counts (never negative); anything else starting like a formula is neutralised.
  if (typeof value !== 'number' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A CSV file: a header row, then one record per row with the header's columns in order. Starts with a UTF-8
 * byte-order mark, without which Excel reads a CSV as the system's legacy code page and garbles non-ASCII.
 */
export function csvDocument<C extends string>(
  columns: readonly C[],
  rows: Iterable<Partial<Record<C, CsvValue>>>,
): string {
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c])).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
