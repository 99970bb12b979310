// Which raw reports of a batch are kept (counts are never sampled): the first reports of each group and
// hour, up to REPORT_LIMITS.rawPerGroupHour, while the domain's hour is under its budget of
// REPORT_LIMITS.rawBudgetPerDomainHour; above either, one in REPORT_LIMITS.sampleOneIn, by a draw the
// caller makes from the report's id, so a redelivered report is decided the same way.
import { type GroupHour, type HourTally, hourTally, type ReportRef } from './aggregate';
import { REPORT_LIMITS } from './limits';

export interface SampleState {
  /** Hits the group (by index) had counted in the table before this batch. */
  countedBefore: (group: number) => number;
  /** Raw reports the hour had kept in the table before this batch. */
  keptBefore: (hour: string) => number;
  /** The report's (by index) one-in-sampleOneIn draw; asked only of reports past the budgets. */
  drawn: (report: number) => boolean;
}

/** Indexes (into `reports`) of the reports to keep, in order; adds what each hour keeps to `hours`. */
export function sampleReports(
  reports: readonly ReportRef[],
  groups: readonly GroupHour[],
  hours: Map<string, HourTally>,
  state: SampleState,
): number[] {
  const rank = new Map<number, number>();
  const keptByHour = new Map<string, number>();
  const kept: number[] = [];
  reports.forEach((ref, i) => {
    const { hour } = groups[ref.group]!;
    const n = (rank.get(ref.group) ?? 0) + 1;
    rank.set(ref.group, n);
    const keptThisHour = state.keptBefore(hour) + (keptByHour.get(hour) ?? 0);
    const underBudget =
      state.countedBefore(ref.group) + n <= REPORT_LIMITS.rawPerGroupHour &&
      keptThisHour < REPORT_LIMITS.rawBudgetPerDomainHour;
    if (!underBudget && !state.drawn(i)) return;
    keptByHour.set(hour, (keptByHour.get(hour) ?? 0) + 1);
    kept.push(i);
  });
  for (const [hour, n] of keptByHour) hourTally(hours, hour).stored += n;
  return kept;
}
