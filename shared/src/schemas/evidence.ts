// The evidence export's query (GET /api/domains/:id/evidence): the format and the period, days in UTC. The
// period's defaults and its bounds are resolved by `evidencePeriod` (they depend on today).
import * as z from 'zod';

export const EVIDENCE_FORMATS = ['csv', 'json'] as const;
export type EvidenceFormat = (typeof EVIDENCE_FORMATS)[number];

export const EVIDENCE_LIMITS = {
  /** The period when none is given: the last 90 days, today included. */
  defaultDays: 90,
  /** A year, leap day included: an assessor's usual period, and a bound on what one export reads. */
  maxDays: 366,
  /** Watched runs one export lists (a daily schedule makes 366 in the longest period; manual runs add some). */
  runs: 1_000,
  /** Alert groups one export lists (the most recently seen that overlap the period). */
  alerts: 1_000,
  /** Alert deliveries one export lists (the first of the period). */
  deliveries: 1_000,
  /**
   * Bytes one download may carry: a Lambda answer holds 6 MB, and a larger one would fail as a bare 502.
   * Only an inventory of thousands of scripts on many pages each comes near it.
   */
  responseBytes: 5_500_000,
} as const;

const day = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date written YYYY-MM-DD`)
    .refine((d) => isCalendarDay(d), `${name} is not a calendar date`)
    .optional();

/** Whether YYYY-MM-DD names a real day (2026-02-30 does not). */
export function isCalendarDay(d: string): boolean {
  const ms = Date.parse(`${d}T00:00:00.000Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === d;
}

export const evidenceQuerySchema = z.object({
  format: z.enum(EVIDENCE_FORMATS, { message: 'format must be csv or json' }).default('csv'),
  from: day('from'),
  to: day('to'),
});
export type EvidenceQuery = z.infer<typeof evidenceQuerySchema>;
