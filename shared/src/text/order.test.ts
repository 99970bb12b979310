import { describe, expect, it } from 'vitest';
import { byCodeUnits } from './order';

describe('byCodeUnits', () => {
  it('orders ISO timestamps in time order and is consistent both ways', () => {
    const at = ['2026-11-25T10:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-11-25T09:59:59.999Z'];
    expect([...at].sort(byCodeUnits)).toEqual([at[1], at[2], at[0]]);
    expect(byCodeUnits('a', 'b')).toBe(-1);
    expect(byCodeUnits('b', 'a')).toBe(1);
    expect(byCodeUnits('script-src', 'script-src')).toBe(0);
  });

  it('does not depend on a locale: upper case before lower, as in every runtime', () => {
    expect(['b', 'B', 'a', 'A'].sort(byCodeUnits)).toEqual(['A', 'B', 'a', 'b']);
  });
});
