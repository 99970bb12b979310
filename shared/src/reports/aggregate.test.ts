import { describe, expect, it } from 'vitest';
import type { NormalizedReport, ReportMessage } from '../schemas/report';
import { aggregateReports, capNewGroups, type GroupHour, type HourTally } from './aggregate';
import { REPORT_LIMITS } from './limits';

const report = (blockedUri: string, reportedAt: string, violatedDirective = 'img-src'): NormalizedReport => ({
  documentUri: 'https://shop.example/',
  blockedUri,
  violatedDirective,
  reportedAt,
});

const message = (
  reports: NormalizedReport[],
  dropped: ReportMessage['dropped'] = {},
  receivedAt = '2026-11-25T10:59:59.000Z',
): Pick<ReportMessage, 'receivedAt' | 'dropped' | 'reports'> => ({ receivedAt, dropped, reports });

describe('aggregateReports', () => {
  it('adds reports up by group and the hour the browser saw them, across messages', () => {
    const counts = aggregateReports([
      message([
        report('https://cdn.example/a.png', '2026-11-25T10:20:00.000Z'),
        report('https://cdn.example/b.png', '2026-11-25T10:05:00.000Z'),
        report('https://cdn.example/c.png', '2026-11-25T11:01:00.000Z'),
      ]),
      message([
        report('https://cdn.example/d.png', '2026-11-25T10:40:00.000Z'),
        report('data:image/png;base64,AAAA', '2026-11-25T10:30:00.000Z'),
        report('https://cdn.example/x.js', '2026-11-25T10:31:00.000Z', 'script-src-elem'),
      ]),
    ]);
    expect(counts.groups).toEqual([
      {
        hour: '2026-11-25T10',
        directive: 'img-src',
        source: 'https://cdn.example',
        hits: 3,
        firstSeen: '2026-11-25T10:05:00.000Z',
        lastSeen: '2026-11-25T10:40:00.000Z',
      },
      {
        hour: '2026-11-25T11',
        directive: 'img-src',
        source: 'https://cdn.example',
        hits: 1,
        firstSeen: '2026-11-25T11:01:00.000Z',
        lastSeen: '2026-11-25T11:01:00.000Z',
      },
      expect.objectContaining({ hour: '2026-11-25T10', source: 'data:', hits: 1 }),
      expect.objectContaining({ directive: 'script-src-elem', source: 'https://cdn.example', hits: 1 }),
    ]);
    expect(counts.reports).toEqual([
      { message: 0, index: 0, group: 0 },
      { message: 0, index: 1, group: 0 },
      { message: 0, index: 2, group: 1 },
      { message: 1, index: 0, group: 0 },
      { message: 1, index: 1, group: 2 },
      { message: 1, index: 2, group: 3 },
    ]);
    expect(counts.hours.get('2026-11-25T10')).toEqual({ received: 5, stored: 0, dropped: {}, newGroups: 0 });
    expect(counts.hours.get('2026-11-25T11')?.received).toBe(1);
  });

  it('counts dropped reports in the hour their message was received, summed by reason', () => {
    const counts = aggregateReports([
      message([], { repeat: 2, offsite: 1 }, '2026-11-25T09:10:00.000Z'),
      message(
        [report('https://cdn.example/a.png', '2026-11-25T08:59:00.000Z')],
        { repeat: 3 },
        '2026-11-25T09:20:00.000Z',
      ),
      message([], { repeat: 0 }, '2026-11-25T12:00:00.000Z'),
    ]);
    expect(counts.hours.get('2026-11-25T09')).toEqual({
      received: 0,
      stored: 0,
      dropped: { repeat: 5, offsite: 1 },
      newGroups: 0,
    });
    expect(counts.hours.get('2026-11-25T08')?.received).toBe(1);
    // A zero count makes no hour of its own.
    expect(counts.hours.has('2026-11-25T12')).toBe(false);
  });
});

describe('capNewGroups', () => {
  const group = (source: string, hour = '2026-11-25T10', hits = 1): GroupHour => ({
    hour,
    directive: 'img-src',
    source,
    hits,
    firstSeen: `${hour}:10:00.000Z`,
    lastSeen: `${hour}:20:00.000Z`,
  });

  it('counts known groups and new ones while the hour has room; the rest go to the hour\'s "other" counter', () => {
    const cap = REPORT_LIMITS.newGroupsPerDomainHour;
    const groups = [
      group('https://known.example', '2026-11-25T10', 4),
      group('https://new1.example', '2026-11-25T10', 2),
      group('https://new2.example', '2026-11-25T10', 3),
      { ...group('https://new3.example', '2026-11-25T10', 5), firstSeen: '2026-11-25T10:01:00.000Z' },
      group('https://new4.example', '2026-11-25T11', 1),
    ];
    const hours = new Map<string, HourTally>();
    const { counted, others } = capNewGroups(groups, hours, {
      known: (g) => g.source === 'https://known.example',
      // Hour 10 has room for one more new group; hour 11 is empty.
      groupsInHour: (hour) => (hour === '2026-11-25T10' ? cap - 1 : 0),
    });
    expect(counted.map((g) => g.source)).toEqual([
      'https://known.example',
      'https://new1.example',
      'https://new4.example',
    ]);
    expect(others).toEqual([
      {
        hour: '2026-11-25T10',
        hits: 8,
        firstSeen: '2026-11-25T10:01:00.000Z',
        lastSeen: '2026-11-25T10:20:00.000Z',
      },
    ]);
    expect(hours.get('2026-11-25T10')?.newGroups).toBe(1);
    expect(hours.get('2026-11-25T11')?.newGroups).toBe(1);
  });

  it('keeps counting known groups individually when the hour is full', () => {
    const hours = new Map<string, HourTally>();
    const { counted, others } = capNewGroups(
      [group('https://a.example'), group('https://b.example')],
      hours,
      {
        known: () => true,
        groupsInHour: () => REPORT_LIMITS.newGroupsPerDomainHour,
      },
    );
    expect(counted).toHaveLength(2);
    expect(others).toEqual([]);
    expect(hours.size).toBe(0);
  });
});
