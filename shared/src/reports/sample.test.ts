import { describe, expect, it } from 'vitest';
import type { GroupHour, HourTally, ReportRef } from './aggregate';
import { REPORT_LIMITS } from './limits';
import { sampleReports } from './sample';

const group = (source: string, hour = '2026-11-25T10'): GroupHour => ({
  hour,
  directive: 'img-src',
  source,
  hits: 0,
  firstSeen: `${hour}:00:00.000Z`,
  lastSeen: `${hour}:00:00.000Z`,
});

/** `n` reports of each group, one message per report. */
function refs(groupIndexes: number[], n: number): ReportRef[] {
  const out: ReportRef[] = [];
  for (const g of groupIndexes)
    for (let i = 0; i < n; i++) out.push({ message: out.length, index: 0, group: g });
  return out;
}

describe('sampleReports', () => {
  const { rawPerGroupHour, rawBudgetPerDomainHour } = REPORT_LIMITS;

  it("keeps each group's first reports of the hour, then only the drawn ones", () => {
    const groups = [group('https://a.example'), group('https://b.example')];
    const reports = refs([0, 1], rawPerGroupHour + 5);
    const hours = new Map<string, HourTally>();
    const asked: number[] = [];
    const kept = sampleReports(reports, groups, hours, {
      countedBefore: () => 0,
      keptBefore: () => 0,
      drawn: (i) => {
        asked.push(i);
        return i % 2 === 0;
      },
    });
    const perGroup = rawPerGroupHour + 5;
    const firstOf = (g: number) => Array.from({ length: rawPerGroupHour }, (_, i) => g * perGroup + i);
    const past = (g: number) => [0, 1, 2, 3, 4].map((i) => g * perGroup + rawPerGroupHour + i);
    expect(asked).toEqual([...past(0), ...past(1)]);
    expect(kept).toEqual([
      ...firstOf(0),
      ...past(0).filter((i) => i % 2 === 0),
      ...firstOf(1),
      ...past(1).filter((i) => i % 2 === 0),
    ]);
    expect(hours.get('2026-11-25T10')?.stored).toBe(kept.length);
  });

  it("counts the group's hits already in the table against its first reports", () => {
    const reports = refs([0], 4);
    const kept = sampleReports(reports, [group('https://a.example')], new Map(), {
      countedBefore: () => rawPerGroupHour - 2,
      keptBefore: () => 0,
      drawn: () => false,
    });
    expect(kept).toEqual([0, 1]);
  });

  it("stops at the domain's hourly budget, counting what the hour kept before, per hour", () => {
    const groups = Array.from({ length: 4 }, (_, i) => group(`https://s${i}.example`));
    groups.push(group('https://later.example', '2026-11-25T11'));
    const reports = refs([0, 1, 2, 3, 4], 3);
    const hours = new Map<string, HourTally>([
      ['2026-11-25T10', { received: 12, stored: 0, dropped: {}, newGroups: 0 }],
    ]);
    const kept = sampleReports(reports, groups, hours, {
      countedBefore: () => 0,
      keptBefore: (hour) => (hour === '2026-11-25T10' ? rawBudgetPerDomainHour - 5 : 0),
      drawn: () => false,
    });
    // Five more fit in hour 10; hour 11 has its whole budget.
    expect(kept).toEqual([0, 1, 2, 3, 4, 12, 13, 14]);
    expect(hours.get('2026-11-25T10')).toEqual({ received: 12, stored: 5, dropped: {}, newGroups: 0 });
    expect(hours.get('2026-11-25T11')?.stored).toBe(3);
  });

  it('keeps nothing of a full hour but what is drawn, and stores no tally for an hour that keeps nothing', () => {
    const hours = new Map<string, HourTally>();
    const kept = sampleReports(refs([0], 3), [group('https://a.example')], hours, {
      countedBefore: () => 0,
      keptBefore: () => rawBudgetPerDomainHour,
      drawn: (i) => i === 1,
    });
    expect(kept).toEqual([1]);
    expect(hours.get('2026-11-25T10')?.stored).toBe(1);
    const none = new Map<string, HourTally>();
    expect(
      sampleReports(refs([0], 2), [group('https://a.example')], none, {
        countedBefore: () => rawPerGroupHour,
        keptBefore: () => 0,
        drawn: () => false,
      }),
    ).toEqual([]);
    expect(none.size).toBe(0);
  });
});
