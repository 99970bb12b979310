// One run of an analysis as the coordinator hands it to the crawler, and what the crawler answers. The job
// carries everything the crawler reads (it has no table access): the request, where reports go, the run's
// token for the crawl writer and the checkpoint id of its stored state. The answer is only a hint: the
// coordinator decides from the analysis item what happens next (coordinator.ts).
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import * as z from 'zod';
import { checkpointIdSchema, runTokenSchema } from '../store/run-token';

export const analysisJobSchema = z.strictObject({
  analysisId: z.string().min(1).max(64),
  runToken: runTokenSchema,
  crawlRequest: crawlRequestSchema,
  /** report-uri of the generated policies (analyses of a domain). */
  reportUri: z.string().max(2048).nullable(),
  checkpointId: checkpointIdSchema,
  /** An earlier run may have stored state to continue from. */
  resume: z.boolean(),
  /** Epoch ms by which the run must have answered (the coordinator waits for it until then). */
  deadline: z.number().int(),
});
export type AnalysisJob = z.infer<typeof analysisJobSchema>;

export const analysisJobResultSchema = z.discriminatedUnion('outcome', [
  /** Completed or failed through the writer. */
  z.object({ outcome: z.literal('finished') }),
  /** State stored at the checkpoint: continue in a new run after the delay. */
  z.object({ outcome: z.literal('continue'), delaySeconds: z.number().int().min(0).max(900) }),
  /** The writer refused the token (another run took the analysis over): stopped without writing. */
  z.object({ outcome: z.literal('lost') }),
]);
export type AnalysisJobResult = z.infer<typeof analysisJobResultSchema>;
