import { describe, expect, it } from 'vitest';
import { nextRunAt, type Schedule, scheduleSchema } from './schedule';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (s: string) => Date.parse(s);

describe('nextRunAt', () => {
  it('runs daily at the local time, today if still ahead, else tomorrow', () => {
    const daily: Schedule = { frequency: 'daily', time: '03:30', weekday: 1, timeZone: 'Europe/Berlin' };
    // 03:30 in Berlin in winter is 02:30 UTC.
    expect(iso(nextRunAt(daily, at('2026-11-26T01:00:00Z')))).toBe('2026-11-26T02:30:00.000Z');
    expect(iso(nextRunAt(daily, at('2026-11-26T02:30:00Z')))).toBe('2026-11-27T02:30:00.000Z');
  });

  it('runs weekly on its weekday', () => {
    const weekly: Schedule = { frequency: 'weekly', time: '09:00', weekday: 1, timeZone: 'America/New_York' };
    // Thursday 26 Nov 2026 → Monday 30 Nov, 09:00 EST = 14:00 UTC.
    expect(iso(nextRunAt(weekly, at('2026-11-26T12:00:00Z')))).toBe('2026-11-30T14:00:00.000Z');
    expect(iso(nextRunAt(weekly, at('2026-11-30T14:00:00Z')))).toBe('2026-12-07T14:00:00.000Z');
  });

  it('keeps the local time across DST, and runs a skipped time at the first instant after it', () => {
    const daily: Schedule = { frequency: 'daily', time: '02:30', weekday: 1, timeZone: 'Europe/Berlin' };
    // 29 Mar 2026: clocks go 02:00 → 03:00 in Berlin; 02:30 does not exist: 03:00 CEST = 01:00 UTC.
    expect(iso(nextRunAt(daily, at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:00:00.000Z');
    // The day after: 02:30 CEST = 00:30 UTC.
    expect(iso(nextRunAt(daily, at('2026-03-29T12:00:00Z')))).toBe('2026-03-30T00:30:00.000Z');
    // 25 Oct 2026: 02:30 happens twice; the first (CEST) = 00:30 UTC.
    expect(iso(nextRunAt(daily, at('2026-10-24T12:00:00Z')))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('never runs when off', () => {
    expect(
      nextRunAt({ frequency: 'off', time: '00:00', weekday: 0, timeZone: 'UTC' }, Date.now()),
    ).toBeNull();
  });
});

describe('scheduleSchema', () => {
  it('refuses bad times, zones and fields with a clear message', () => {
    const bad = scheduleSchema.safeParse({ frequency: 'daily', time: '24:00', timeZone: 'Mars/Base' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      'Time must be HH:MM (24 h)',
      'Unknown time zone',
    ]);
    expect(scheduleSchema.safeParse({ frequency: 'hourly', time: '01:00', timeZone: 'UTC' }).success).toBe(
      false,
    );
    expect(
      scheduleSchema.safeParse({ frequency: 'daily', time: '01:00', timeZone: 'UTC', x: 1 }).success,
    ).toBe(false);
    expect(scheduleSchema.parse({ frequency: 'weekly', time: '01:00', timeZone: 'UTC' }).weekday).toBe(1);
  });
});
