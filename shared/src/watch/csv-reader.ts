// A strict RFC 4180 reader for tests: what a spreadsheet makes of the CSV we write (quoted fields may hold
// commas, doubled quotes and line breaks; records end in CRLF). Throws on a malformed file.
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const field = (): string => {
    if (text[i] !== '"') {
      const end = text.slice(i).search(/,|\r\n|$/);
      const value = text.slice(i, i + end);
      if (value.includes('"') || value.includes('\n') || value.includes('\r')) {
        throw new Error(`Unquoted field holds a quote or line break at ${i}`);
      }
      i += end;
      return value;
    }
    let value = '';
    i++;
    for (;;) {
      if (i >= text.length) throw new Error('Unterminated quoted field');
      if (text[i] === '"') {
        if (text[i + 1] === '"') {
          value += '"';
          i += 2;
          continue;
        }
        i++;
        return value;
      }
      value += text[i++];
    }
  };
  while (i < text.length) {
    record.push(field());
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) i += 2;
    else if (i < text.length) throw new Error(`Unexpected character at ${i}`);
    records.push(record);
    record = [];
  }
  if (record.length) records.push(record);
  return records;
}
