import { describe, expect, it } from 'vitest';
import { formatRunTime, timeZoneChoices } from './run-time';

describe('formatRunTime', () => {
  it('shows weekday, day, month, 24 h time and zone in the schedule’s zone', () => {
    expect(formatRunTime('2025-12-02T06:00:00.000Z', 'UTC')).toBe('Tue 2 Dec, 06:00 UTC');
    // 23:30 UTC is already Wednesday in Tokyo.
    expect(formatRunTime('2025-12-02T23:30:00.000Z', 'Asia/Tokyo')).toBe('Wed 3 Dec, 08:30 GMT+9');
  });

  it('offers UTC first and keeps a saved zone', () => {
    expect(timeZoneChoices('Europe/Paris')[0]).toBe('UTC');
    expect(timeZoneChoices('Europe/Paris')).toContain('Europe/Paris');
  });
});
