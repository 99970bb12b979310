// What a batch of report messages adds to a domain's counts, before anything is written: one counter per
// group (directive × blocked source) and hour, the hour's received and dropped reports, and — once the
// counters already in the table are known — which new groups the hour still takes individually. The
// report consumer reads the table between the two steps and writes what they decide.
import type { DropCounts, ReportMessage } from '../schemas/report';
import { hourOf, reportGroup } from './group';
import { DROP_REASONS, REPORT_LIMITS } from './limits';

/** One group's reports in one hour, as the batch adds them up. */
export interface GroupHour {
  hour: string;
  directive: string;
  source: string;
  hits: number;
  firstSeen: string;
  lastSeen: string;
}

/** Reports of one hour whose groups came after the hour's cap of new groups: one counter, exact in total. */
export interface OtherHour {
  hour: string;
  hits: number;
  firstSeen: string;
  lastSeen: string;
}

/** What the batch adds to one hour of the domain. */
export interface HourTally {
  received: number;
  /** Raw reports kept (see sampleReports). */
  stored: number;
  dropped: DropCounts;
  /** New groups counted individually (checked against REPORT_LIMITS.newGroupsPerDomainHour). */
  newGroups: number;
}

/** One report of the batch: `messages[message].reports[index]`, counted in `groups[group]`. */
export interface ReportRef {
  message: number;
  index: number;
  group: number;
}

export interface BatchCounts {
  /** In the order the batch first names them. */
  groups: GroupHour[];
  hours: Map<string, HourTally>;
  /** Every report of the batch, in order. */
  reports: ReportRef[];
}

type CountedMessage = Pick<ReportMessage, 'receivedAt' | 'dropped' | 'reports'>;

/** The hour's tally, created empty on first use. */
export function hourTally(hours: Map<string, HourTally>, hour: string): HourTally {
  let tally = hours.get(hour);
  if (!tally) {
    tally = { received: 0, stored: 0, dropped: {}, newGroups: 0 };
    hours.set(hour, tally);
  }
  return tally;
}

/** Adds up a batch: reports by group and hour (when the browser saw them), drops by the hour received. */
export function aggregateReports(messages: readonly CountedMessage[]): BatchCounts {
  const byKey = new Map<string, number>();
  const groups: GroupHour[] = [];
  const hours = new Map<string, HourTally>();
  const reports: ReportRef[] = [];
  messages.forEach((message, m) => {
    const droppedHour = hourOf(message.receivedAt);
    for (const reason of DROP_REASONS) {
      const n = message.dropped[reason];
      if (!n) continue;
      const tally = hourTally(hours, droppedHour);
      tally.dropped[reason] = (tally.dropped[reason] ?? 0) + n;
    }
    message.reports.forEach((r, index) => {
      const { directive, source } = reportGroup(r);
      const hour = hourOf(r.reportedAt);
      const key = `${hour}\n${directive}\n${source}`;
      let group = byKey.get(key);
      if (group === undefined) {
        group = groups.length;
        groups.push({ hour, directive, source, hits: 0, firstSeen: r.reportedAt, lastSeen: r.reportedAt });
        byKey.set(key, group);
      }
      const g = groups[group]!;
      g.hits += 1;
      if (r.reportedAt < g.firstSeen) g.firstSeen = r.reportedAt;
      if (r.reportedAt > g.lastSeen) g.lastSeen = r.reportedAt;
      hourTally(hours, hour).received += 1;
      reports.push({ message: m, index, group });
    });
  });
  return { groups, hours, reports };
}

export interface CappedGroups<G> {
  /** Groups counted individually: those with a counter already, and the new ones the hour had room for. */
  counted: G[];
  /** Per hour, the reports of the new groups past the cap. */
  others: OtherHour[];
}

/**
 * The hour's cap of new groups: a group with a counter already is counted there; a new one only while the
 * hour has room (REPORT_LIMITS.newGroupsPerDomainHour, less the groups it counts already), else its
 * reports go to the hour's "other" counter. Adds the new groups taken to `hours`.
 */
export function capNewGroups<G extends GroupHour>(
  groups: readonly G[],
  hours: Map<string, HourTally>,
  table: {
    /** The group has a counter in the table already. */
    known: (group: G) => boolean;
    /** Groups the hour counts individually in the table already. */
    groupsInHour: (hour: string) => number;
  },
): CappedGroups<G> {
  const room = new Map<string, number>();
  const counted: G[] = [];
  const others = new Map<string, OtherHour>();
  for (const g of groups) {
    if (table.known(g)) {
      counted.push(g);
      continue;
    }
    const left = room.get(g.hour) ?? REPORT_LIMITS.newGroupsPerDomainHour - table.groupsInHour(g.hour);
    if (left > 0) {
      room.set(g.hour, left - 1);
      hourTally(hours, g.hour).newGroups += 1;
      counted.push(g);
      continue;
    }
    room.set(g.hour, 0);
    const o = others.get(g.hour) ?? { hour: g.hour, hits: 0, firstSeen: g.firstSeen, lastSeen: g.lastSeen };
    o.hits += g.hits;
    if (g.firstSeen < o.firstSeen) o.firstSeen = g.firstSeen;
    if (g.lastSeen > o.lastSeen) o.lastSeen = g.lastSeen;
    others.set(g.hour, o);
  }
  return { counted, others: [...others.values()] };
}
