import { describe, expect, it } from 'vitest';
import type { ReportGroupCount } from '../schemas/report';
import { REPORT_LIMITS } from './limits';
import { topGroups } from './top-groups';

const group = (i: number): ReportGroupCount => ({
  directive: 'img-src',
  source: `https://s${i}.example`,
  count: 1000 - i,
  firstSeen: '2026-11-25T10:00:00.000Z',
  lastSeen: '2026-11-25T10:00:00.000Z',
});

describe('topGroups', () => {
  const all = Array.from({ length: 450 }, (_, i) => group(i));
  const total = all.reduce((n, g) => n + g.count, 0);

  it('answers the most reported groups and sums up the rest exactly', () => {
    const { shown, other } = topGroups(all, { overCap: 7 });
    expect(shown).toHaveLength(REPORT_LIMITS.groupsShown);
    expect(shown[0]!.source).toBe('https://s0.example');
    expect(other.groups).toBe(450 - REPORT_LIMITS.groupsShown);
    expect(other.count + shown.reduce((n, g) => n + g.count, 0)).toBe(total);
    expect(other.overCap).toBe(7);
  });

  it('pages from an offset; the other groups are all those not answered', () => {
    const { shown, other } = topGroups(all, { offset: 400, overCap: 0 });
    expect(shown.map((g) => g.source)).toEqual(all.slice(400).map((g) => g.source));
    expect(other.groups).toBe(400);
    expect(other.count).toBe(all.slice(0, 400).reduce((n, g) => n + g.count, 0));
  });
});
