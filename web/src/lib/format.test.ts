import { describe, expect, it } from 'vitest';
import {
  durationBetween,
  formatCount,
  formatDate,
  formatDateTime,
  formatDuration,
  formatTime,
} from './format';

describe('formatDuration', () => {
  it('reads as seconds, minutes and hours', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(350)).toBe('under 1s');
    expect(formatDuration(600)).toBe('1s');
    expect(formatDuration(45_400)).toBe('45s');
    expect(formatDuration(134_000)).toBe('2m 14s');
    expect(formatDuration(3_780_000)).toBe('1h 3m');
    expect(formatDuration(-1)).toBeNull();
  });

  it('measures between two timestamps, or gives null', () => {
    expect(durationBetween('2026-01-01T10:00:00Z', '2026-01-01T10:01:30Z')).toBe('1m 30s');
    expect(durationBetween('2026-01-01T10:00:00Z', null)).toBeNull();
    expect(durationBetween(undefined, '2026-01-01T10:00:00Z')).toBeNull();
  });
});

describe('dates and counts', () => {
  // What the UI showed with Intl's English (US) formats, which the hand-written ones replace: the same text,
  // in the local time zone (Intl's newer data puts a narrow no-break space before AM/PM; Chromium a space).
  const intl = (options: Intl.DateTimeFormatOptions) => (d: Date) =>
    new Intl.DateTimeFormat('en-US', options).format(d).replace(/\u202f/g, ' ');
  const dates = [
    new Date(2026, 0, 1, 0, 0),
    new Date(2026, 10, 25, 19, 0),
    new Date(2026, 11, 31, 23, 59),
    new Date(2027, 5, 9, 12, 5),
    new Date(1999, 1, 28, 11, 59),
    new Date(2026, 2, 29, 1, 30),
  ];

  it('writes a date, a time and both as Intl wrote them in English', () => {
    for (const d of dates) {
      expect(formatDate(d.toISOString())).toBe(intl({ dateStyle: 'medium' })(d));
      expect(formatTime(d.toISOString())).toBe(intl({ timeStyle: 'short' })(d));
      expect(formatDateTime(d.toISOString())).toBe(intl({ dateStyle: 'medium', timeStyle: 'short' })(d));
    }
    expect(formatDateTime(new Date(2026, 10, 25, 19, 0).toISOString())).toBe('Nov 25, 2026, 7:00 PM');
    expect(formatTime(new Date(2026, 10, 25, 0, 7).toISOString())).toBe('12:07 AM');
  });

  it('gives the fallback for a missing or unreadable date', () => {
    expect(formatDateTime(null)).toBe('—');
    expect(formatDate('not a date', 'never')).toBe('never');
    expect(formatTime(undefined)).toBe('—');
  });

  it('groups thousands as Intl did', () => {
    const english = new Intl.NumberFormat('en-US');
    for (const n of [
      0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890, -4321, 2.5, 1234.5678, 0.0004,
    ]) {
      expect(formatCount(n)).toBe(english.format(n));
    }
  });
});
