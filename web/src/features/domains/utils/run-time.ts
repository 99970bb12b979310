// A scheduled run's time as the panel shows it, in the schedule's own time zone: "Tue 2 Dec, 06:00 UTC".

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

export function formatRunTime(iso: string, timeZone: string): string {
  const parts = formatterFor(timeZone).formatToParts(new Date(iso));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')}, ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}

/** The time zones the form offers: UTC, the browser's own, and the zone already saved. */
export function timeZoneChoices(saved: string): string[] {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return [...new Set(['UTC', own, saved].filter(Boolean))];
}
