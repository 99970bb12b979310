// The period of an evidence export: whole UTC days, both ends included. Missing ends default to the last
// EVIDENCE_LIMITS.defaultDays days up to today; a period longer than EVIDENCE_LIMITS.maxDays, or one that
// ends before it starts, is refused with a sentence the user reads.
import { EVIDENCE_LIMITS, type EvidenceQuery } from '../schemas/evidence';

const DAY_MS = 86_400_000;

export interface EvidencePeriod {
  /** First and last day, YYYY-MM-DD. */
  fromDay: string;
  toDay: string;
  /** The same as ISO instants: from the first millisecond of `fromDay` to the last of `toDay`. */
  from: string;
  to: string;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const startOf = (d: string) => Date.parse(`${d}T00:00:00.000Z`);

export function evidencePeriod(
  q: Pick<EvidenceQuery, 'from' | 'to'>,
  now: number,
): EvidencePeriod | { error: string } {
  const span = (EVIDENCE_LIMITS.defaultDays - 1) * DAY_MS;
  const toDay = q.to ?? (q.from ? dayOf(Math.min(startOf(q.from) + span, now)) : dayOf(now));
  const fromDay = q.from ?? dayOf(startOf(toDay) - span);
  const days = (startOf(toDay) - startOf(fromDay)) / DAY_MS + 1;
  if (days < 1) return { error: `The period ends (${toDay}) before it starts (${fromDay})` };
  if (days > EVIDENCE_LIMITS.maxDays) {
    return {
      error: `The period is ${days} days long; an export covers ${EVIDENCE_LIMITS.maxDays} days at most`,
    };
  }
  return {
    fromDay,
    toDay,
    from: `${fromDay}T00:00:00.000Z`,
    to: `${toDay}T23:59:59.999Z`,
  };
}
