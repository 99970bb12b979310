import { describe, expect, it } from 'vitest';
import { type HourCount, reportAlerts } from './report-alerts';

const H = 3_600_000;
const now = Date.UTC(2026, 10, 26, 12, 20); // 12:20, the last complete hour is 11:00–12:00
const hour = (hoursAgo: number) => Date.UTC(2026, 10, 26, 12) - hoursAgo * H;
const steady = (from: number, to: number, count: number): HourCount[] =>
  Array.from({ length: to - from }, (_, i) => ({ hour: hour(from + i), count }));

describe('reportAlerts', () => {
  it('says nothing while reports flow as usual', () => {
    expect(reportAlerts(steady(1, 200, 3), now)).toEqual([]);
  });

  it('says reports stopped after 24 silent hours, once they had been arriving', () => {
    const history = steady(25, 200, 1);
    expect(reportAlerts(history, now)).toEqual([
      { kind: 'reports-stopped', cause: `stopped:${hour(25)}`, lastReportAt: hour(24), before: 168 },
    ]);
    // 23 silent hours: not yet.
    expect(reportAlerts(steady(23, 200, 1), now)).toEqual([]);
    // Nine reports in the week before the silence are not a flow that stopped.
    expect(reportAlerts(steady(25, 34, 1), now)).toEqual([]);
    // Still silent a day later: the same cause, so it groups with the first alert.
    expect(reportAlerts(history, now + 24 * H)[0]!.cause).toBe(`stopped:${hour(25)}`);
  });

  it('sees a spike of ten times the hourly mean, and not a small one after a quiet week', () => {
    const spike = [...steady(2, 170, 10), { hour: hour(1), count: 60 }];
    expect(reportAlerts(spike, now)).toEqual([]);
    const big = [...steady(2, 170, 10), { hour: hour(1), count: 500 }];
    expect(reportAlerts(big, now)).toEqual([
      expect.objectContaining({ kind: 'report-spike', hour: hour(1), count: 500, cause: `spike:${hour(1)}` }),
    ]);
    expect(reportAlerts([{ hour: hour(1), count: 12 }], now)).toEqual([]);
    expect(reportAlerts([{ hour: hour(1), count: 80 }], now)).toEqual([
      expect.objectContaining({ kind: 'report-spike', count: 80, mean: 0 }),
    ]);
  });
});
