// What the dashboard shows of a domain's watch, per domain in the domains list (GET /api/domains): how many
// scripts wait for review, and whether the latest watched run served the saved policy (its drift).
import * as z from 'zod';
import type { DriftState } from '../watch/drift';

export const driftStateSchema = z.enum(['matches', 'differs', 'none-served']) satisfies z.ZodType<DriftState>;

export const domainWatchSchema = z.object({
  /** Scripts of the inventory in the "pending" state. */
  pendingScripts: z.number().int().nonnegative(),
  /** The latest watched run's drift; null before a run, or when the domain had no active configuration then. */
  lastDrift: z
    .object({ state: driftStateSchema, analysisId: z.string(), completedAt: z.string() })
    .nullable(),
});
export type DomainWatch = z.infer<typeof domainWatchSchema>;
