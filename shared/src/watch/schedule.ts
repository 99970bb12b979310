// When a watched domain is analysed again: off, daily or weekly, at a time of day in the user's time zone.
// One dispatcher (every few minutes: EventBridge Scheduler in AWS, a timer in `npm start`) starts the runs
// that are due and stores each domain's next run — so this is the one definition of "next run".
// Wall-clock times are converted with Intl (no time-zone library): a time that a DST change skips runs at
// the first instant after it; a time that happens twice runs at the first.
import * as z from 'zod';

export const SCHEDULE_FREQUENCIES = ['off', 'daily', 'weekly'] as const;

export const scheduleSchema = z
  .object({
    frequency: z.enum(SCHEDULE_FREQUENCIES),
    /** Local time of day, 24 h "HH:MM". */
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be HH:MM (24 h)'),
    /** 0 = Sunday … 6 = Saturday; weekly only. */
    weekday: z.number().int().min(0).max(6).default(1),
    /** IANA time zone the time is in. */
    timeZone: z.string().max(64).refine(isTimeZone, 'Unknown time zone'),
  })
  .strict();
export type Schedule = z.infer<typeof scheduleSchema>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall clock in `zone` at instant `ms`. */
function wallAt(ms: number, zone: string): Wall {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    weekday: WEEKDAYS.indexOf(get('weekday')),
  };
}

/** The first instant at or after which the wall clock in `zone` reads this date and time. */
function instantOf(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: string,
): number {
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  // The zone's offset near that time, applied twice (the second pass settles DST edges).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const w = wallAt(guess, zone);
    const offset =
      Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - Math.floor(guess / 60_000) * 60_000;
    guess = asUtc - offset;
  }
  // A skipped time (spring forward) has no instant: take the first one whose wall clock is past it.
  const wanted = wallKey({ year, month, day, hour, minute });
  if (wallKey(wallAt(guess, zone)) !== wanted) {
    while (wallKey(wallAt(guess - 60_000, zone)) >= wanted) guess -= 60_000;
    while (wallKey(wallAt(guess, zone)) < wanted) guess += 60_000;
  } else {
    // A repeated time (fall back) has two instants: take the first (DST shifts are an hour or half of one).
    for (const earlier of [3_600_000, 1_800_000]) {
      if (wallKey(wallAt(guess - earlier, zone)) === wanted) {
        guess -= earlier;
        break;
      }
    }
  }
  return guess;
}

const wallKey = (w: Pick<Wall, 'year' | 'month' | 'day' | 'hour' | 'minute'>) =>
  (((w.year * 100 + w.month) * 100 + w.day) * 100 + w.hour) * 100 + w.minute;

/** The next run strictly after `after` (ms), or null when the schedule is off. */
export function nextRunAt(schedule: Schedule, after: number): number | null {
  if (schedule.frequency === 'off') return null;
  const [hour, minute] = schedule.time.split(':').map(Number) as [number, number];
  const today = wallAt(after, schedule.timeZone);
  // Look at most 8 local days ahead: a daily run is within 2, a weekly one within 8.
  for (let add = 0; add <= 8; add++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + add));
    const weekday = date.getUTCDay();
    if (schedule.frequency === 'weekly' && weekday !== schedule.weekday) continue;
    const at = instantOf(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      hour,
      minute,
      schedule.timeZone,
    );
    if (at > after) return at;
  }
  return null;
}
