// Text from outside (a team's name, a crawled script's URL) shown in a mail: one line, cut.

/**
 * Text fit to be shown as one line: control and format characters (line breaks, bidirectional overrides,
 * zero-width characters) become spaces, runs of blanks one space, and it is cut at `max` characters (never
 * inside a surrogate pair), ending with "…" when cut.
 */
export function oneLineForMail(text: string, max: number): string {
  const line = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(line);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : line;
}
