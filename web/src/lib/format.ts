// Dates and numbers as the UI shows them (the browser's locale).

/**
 * A formatter made on first use: making one loads the locale's data, some milliseconds each on a phone,
 * and most screens use one or two of these, not all, during their first render.
 */
function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
const dateTime = lazy(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
const dateOnly = lazy(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }));
const timeOnly = lazy(() => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }));
const integer = lazy(() => new Intl.NumberFormat(undefined));

/**
 * Makes the formatters in a task of their own, soon: for a screen that shows dates and counts, called while
 * its modules and data are on their way. The first Intl object of a page loads the locale's data, 80–100 ms
 * on a phone (4× CPU throttling); made in the middle of the screen's first render, that was added to an
 * already long task, during which a tap goes unanswered.
 */
export function prepareFormatters(): void {
  setTimeout(() => {
    dateOnly();
    dateTime();
    timeOnly();
    integer();
  }, 0);
}

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDateTime(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? dateTime().format(date) : fallback;
}

export function formatDate(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? dateOnly().format(date) : fallback;
}

export function formatTime(value: string | null | undefined, fallback = '—'): string {
  const date = parse(value);
  return date ? timeOnly().format(date) : fallback;
}

export function formatCount(value: number): string {
  return integer().format(value);
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
