// The report consumer counts a domain's messages in chunks, one DynamoDB transaction each: a chunk's
// distinct counters, hours and guard seconds must fit in one transaction, and its redelivered messages'
// conditions in one expression.
import { hourOf, reportGroup } from '@csp/shared/reports/group';
import type { ReportMessage } from '@csp/shared/schemas/report';

/** Transaction items of one chunk: counters + hours + guard seconds must fit in 100. */
export const MAX_CHUNK_ITEMS = 100;
/** Messages of one chunk at most. */
const MAX_CHUNK_MESSAGES = 2000;
/** Redelivered messages add one condition each: 50 keep the expression well under DynamoDB's 4 KB. */
export const MAX_CHUNK_CHECKED = 50;

/** What chunking reads of a delivered message. */
export interface ChunkedMessage {
  /** The second the queue received it (its guard item). */
  second: number;
  redelivered: boolean;
  message: Pick<ReportMessage, 'receivedAt' | 'reports'>;
}

/** Messages in order, cut so that each chunk's distinct counters, hours and guard seconds fit one transaction. */
export function transactionChunks<T extends ChunkedMessage>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let keys = new Set<string>();
  let checked = 0;
  for (const d of list) {
    const mine = new Set<string>([`g${d.second}`, `s${hourOf(d.message.receivedAt)}`]);
    for (const r of d.message.reports) {
      const { directive, source } = reportGroup(r);
      mine.add(`c${hourOf(r.reportedAt)}\n${directive}\n${source}`);
      mine.add(`s${hourOf(r.reportedAt)}`);
    }
    const merged = new Set([...keys, ...mine]);
    const full =
      merged.size > MAX_CHUNK_ITEMS ||
      current.length >= MAX_CHUNK_MESSAGES ||
      (d.redelivered && checked >= MAX_CHUNK_CHECKED);
    if (current.length > 0 && full) {
      out.push(current);
      current = [];
      keys = mine;
      checked = 0;
    } else {
      keys = merged;
    }
    if (d.redelivered) checked += 1;
    current.push(d);
  }
  if (current.length > 0) out.push(current);
  return out;
}
