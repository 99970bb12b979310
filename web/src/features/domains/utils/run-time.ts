// A scheduled run's time as the panel shows it, in the schedule's own time zone: "Tue 2 Dec, 06:00 UTC".
import { MONTHS, twoDigits } from '@/lib/format';

/** One formatter per time zone: making one loads the zone's data, milliseconds each on a phone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export function formatRunTime(iso: string, timeZone: string): string {
  if (timeZone === 'UTC') {
    // Most schedules run in UTC (the default): written without Intl, whose first use on a page loads the
    // locale's data (a long task on a phone, while the domain screen shows itself).
    const d = new Date(iso);
    return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${twoDigits(d.getUTCHours())}:${twoDigits(d.getUTCMinutes())} UTC`;
  }
  const parts = formatterFor(timeZone).formatToParts(new Date(iso));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')}, ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}

let browserZone: string | undefined;

/**
 * The browser's own time zone, looked up on first use: the lookup makes an Intl object, whose first one on a
 * page loads the locale's data (80–100 ms on a phone), so the form asks for it when the user reaches the
 * time-zone field, not while the screen shows itself.
 */
export function browserTimeZone(): string {
  browserZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return browserZone;
}

/** The time zones the form offers: UTC, the zone already saved, and the browser's own once it is known. */
export function timeZoneChoices(saved: string, own?: string | null): string[] {
  return [...new Set(['UTC', own, saved].filter((zone): zone is string => Boolean(zone)))];
}
