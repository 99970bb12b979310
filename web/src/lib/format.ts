// Dates and numbers as the UI shows them, and the other small texts made of them (durations, hosts, paths).

/**
 * One way to write a date, a time and a count for every user, as the rest of the UI's words (English):
 * "Nov 25, 2026", "7:00 PM", "1,234", in the browser's time zone. Written here rather than with Intl: the
 * first Intl object of a page loads the locale's data, 80–100 ms on a phone (4× CPU throttling), a long
 * task on every signed-in screen's first view while a tap went unanswered; and the browser's locale gave
 * "25.11.2026, 19:00" beside English words.
 */
/** The months' short English names, as every date the UI writes gives them. */
export const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/** A number of 0–99 as two digits ("06"), as the UI writes minutes and 24 h hours. */
export const twoDigits = (n: number) => String(n).padStart(2, '0');

function datePart(date: Date): string {
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

function timePart(date: Date): string {
  const hours = date.getHours();
  const minutes = twoDigits(date.getMinutes());
  return `${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDateTime(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? `${datePart(date)}, ${timePart(date)}` : fallback;
}

export function formatDate(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? datePart(date) : fallback;
}

export function formatTime(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? timePart(date) : fallback;
}

/** A count with its thousands grouped ("12,345"); a fraction keeps up to three digits, as Intl did. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const [whole = '0', fraction] = String(Math.abs(Math.round(value * 1000) / 1000)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** The host of a URL, or the text itself when it is not one. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * A duration as people read it: '45s', '2m 14s', '1h 3m', and 'under 1s' for a moment that took some time
 * (never '0s' for work that was done); null for a negative or unknown span.
 */
export function formatDuration(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < 0) return null;
  const seconds = Math.round(ms / 1000);
  if (seconds === 0 && ms > 0) return 'under 1s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/** The time between two ISO timestamps, formatted; null when either is missing or invalid. */
export function durationBetween(start: string | null | undefined, end: string | null | undefined) {
  const from = parse(start);
  const to = parse(end);
  return from && to ? formatDuration(to.getTime() - from.getTime()) : null;
}

/** "1 page", "12 pages": the count formatted, with the singular or plural noun. */
export function countOf(value: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}

/** The path (and query) of a URL, as pages of one site are told apart; the text itself when it is not one. */
export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
