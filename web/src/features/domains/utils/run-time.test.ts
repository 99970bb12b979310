import { describe, expect, it } from 'vitest';
import { browserTimeZone, formatRunTime, timeZoneChoices } from './run-time';

describe('formatRunTime', () => {
  it('shows weekday, day, month, 24 h time and zone in the schedule’s zone', () => {
    expect(formatRunTime('2025-12-02T06:00:00.000Z', 'UTC')).toBe('Tue 2 Dec, 06:00 UTC');
    // 23:30 UTC is already Wednesday in Tokyo.
    expect(formatRunTime('2025-12-02T23:30:00.000Z', 'Asia/Tokyo')).toBe('Wed 3 Dec, 08:30 GMT+9');
  });

  it('writes UTC times as Intl does, without it', () => {
    // Etc/UTC is the same zone by another name, written by Intl.
    for (const iso of ['2026-01-01T00:00:00.000Z', '2026-06-30T23:59:00.000Z', '2027-02-28T12:05:00.000Z']) {
      expect(formatRunTime(iso, 'UTC')).toBe(formatRunTime(iso, 'Etc/UTC'));
    }
  });

  it('offers UTC first and keeps a saved zone', () => {
    expect(timeZoneChoices('Europe/Paris')[0]).toBe('UTC');
    expect(timeZoneChoices('Europe/Paris')).toEqual(['UTC', 'Europe/Paris']);
    expect(timeZoneChoices('UTC', 'Asia/Tokyo')).toEqual(['UTC', 'Asia/Tokyo']);
    expect(timeZoneChoices('Europe/Paris', browserTimeZone())).toContain(browserTimeZone());
  });
});
