// The crawl queue's message: which analysis to work on. Continuations carry the same shape.
import * as z from 'zod';

export const crawlMessageSchema = z.object({
  analysisId: z.string().min(1).max(64),
  /** Set on a continuation: the run that stored its frontier and asked to go on. */
  runId: z.string().optional(),
});
export type CrawlMessage = z.infer<typeof crawlMessageSchema>;
