// Alerts read from the flow of violation reports of a domain, counted per hour:
// - reports stopped: they had been arriving (at least STOPPED_MIN_BEFORE in the week before) and none came
//   for 24 h — a removed header, a broken endpoint or a site that went down look like this;
// - a spike: the last complete hour brought at least SPIKE_FACTOR times the hourly mean of the week before
//   it, and at least SPIKE_MIN_REPORTS (ten reports after a quiet week are not an attack).
// Each alert names its cause so repeats group into one (stopped: the hour of the last report; spike: its hour).
const HOUR = 3_600_000;
export const STOPPED_AFTER_HOURS = 24;
export const STOPPED_MIN_BEFORE = 10;
export const SPIKE_FACTOR = 10;
export const SPIKE_MIN_REPORTS = 50;
/** The history the mean is taken over. */
export const BASELINE_HOURS = 7 * 24;

export interface HourCount {
  /** Start of the hour (ms since the epoch, a multiple of one hour). */
  hour: number;
  count: number;
}

export type ReportAlert =
  | { kind: 'reports-stopped'; cause: string; lastReportAt: number; before: number }
  | { kind: 'report-spike'; cause: string; hour: number; count: number; mean: number };

/** Alerts due at `now` from hourly counts (any order, hours without reports may be absent). */
export function reportAlerts(hours: readonly HourCount[], now: number): ReportAlert[] {
  const current = Math.floor(now / HOUR) * HOUR;
  const counts = new Map<number, number>();
  for (const h of hours) counts.set(h.hour, (counts.get(h.hour) ?? 0) + h.count);
  const sum = (from: number, to: number) => {
    let n = 0;
    for (const [hour, count] of counts) if (hour >= from && hour < to) n += count;
    return n;
  };
  const alerts: ReportAlert[] = [];

  const silentFrom = current - STOPPED_AFTER_HOURS * HOUR;
  const lastHour = Math.max(-Infinity, ...[...counts].filter(([, c]) => c > 0).map(([h]) => h));
  if (Number.isFinite(lastHour) && lastHour < silentFrom) {
    const before = sum(lastHour - BASELINE_HOURS * HOUR + HOUR, lastHour + HOUR);
    if (before >= STOPPED_MIN_BEFORE) {
      alerts.push({
        kind: 'reports-stopped',
        cause: `stopped:${lastHour}`,
        lastReportAt: lastHour + HOUR,
        before,
      });
    }
  }

  const last = current - HOUR; // the last complete hour
  const count = counts.get(last) ?? 0;
  const mean = sum(last - BASELINE_HOURS * HOUR, last) / BASELINE_HOURS;
  if (count >= SPIKE_MIN_REPORTS && count >= SPIKE_FACTOR * mean) {
    alerts.push({ kind: 'report-spike', cause: `spike:${last}`, hour: last, count, mean });
  }
  return alerts;
}
