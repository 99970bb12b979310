// The groups a list answers: a flood of distinct sources must not make the owner's list or the suggestions
// unbounded, so they show REPORT_LIMITS.groupsShown groups (most reported first, from an offset) and sum up
// the rest.
import type { OtherGroups, ReportGroupCount } from '../schemas/report';
import { REPORT_LIMITS } from './limits';

/** `sorted`: every group of the window, most reported first. */
export function topGroups(
  sorted: readonly ReportGroupCount[],
  opts: { offset?: number; overCap: number },
): { shown: ReportGroupCount[]; other: OtherGroups } {
  const offset = opts.offset ?? 0;
  const shown = sorted.slice(offset, offset + REPORT_LIMITS.groupsShown);
  let count = 0;
  for (const g of sorted) count += g.count;
  for (const g of shown) count -= g.count;
  return { shown, other: { groups: sorted.length - shown.length, count, overCap: opts.overCap } };
}
