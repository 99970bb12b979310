// Dates and numbers as the UI shows them (the browser's locale).
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const integer = new Intl.NumberFormat(undefined);

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDateTime(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? dateTime.format(date) : fallback;
}

export function formatDate(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? dateOnly.format(date) : fallback;
}

export function formatCount(value: number): string {
  return integer.format(value);
}

/** The host of a URL, or the text itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
