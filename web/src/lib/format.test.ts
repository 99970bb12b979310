import { describe, expect, it } from 'vitest';
import { durationBetween, formatDuration } from './format';

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
