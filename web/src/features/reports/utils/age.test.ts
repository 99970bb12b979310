import { describe, expect, it } from 'vitest';
import { ageLabel } from './age';

describe('ageLabel', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('says just now under a minute, then counts minutes, hours and days', () => {
    expect(ageLabel('2026-11-25T11:59:40Z', now)).toBe('just now');
    expect(ageLabel('2026-11-25T11:58:59Z', now)).toBe('1m ago');
    expect(ageLabel('2026-11-25T11:15:00Z', now)).toBe('45m ago');
    expect(ageLabel('2026-11-25T11:00:00Z', now)).toBe('1h ago');
    expect(ageLabel('2026-11-24T12:00:01Z', now)).toBe('23h ago');
    expect(ageLabel('2026-11-24T12:00:00Z', now)).toBe('1d ago');
    expect(ageLabel('2026-11-18T12:00:00Z', now)).toBe('7d ago');
  });
  it('treats a report from the future as new and a bad date as unknown', () => {
    expect(ageLabel('2026-11-25T12:05:00Z', now)).toBe('just now');
    expect(ageLabel('yesterday', now)).toBe('—');
  });
});
