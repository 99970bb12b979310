// A domain's schedule as the API takes and shows it: when (watch/schedule.ts, the one definition of "next
// run"), the crawl settings its runs use (the Advanced Settings of a start), and what its runs did.
import * as z from 'zod';
import { scheduleSchema } from '../watch/schedule';

/** PUT /api/domains/:id/schedule. The crawl settings are checked as a start's are (the domain's URL is set). */
export const scheduleInputSchema = scheduleSchema.extend({
  timeZone: scheduleSchema.shape.timeZone.default('UTC'),
  crawlRequest: z.record(z.string(), z.unknown()).optional().default({}).meta({
    description:
      "The crawl settings of POST /api/csp-analyses each scheduled run uses (the domain's URL is crawled).",
  }),
});
export type ScheduleInput = z.input<typeof scheduleInputSchema>;

/**
 * What one due time of a schedule did: started an analysis, was refused by the start's limits (the reason is
 * the refusal's message), or was skipped because the domain was inactive.
 */
export const SCHEDULE_RUN_OUTCOMES = ['started', 'refused', 'skipped'] as const;
export const scheduleRunSchema = z.object({
  id: z.string(),
  /** When the dispatcher acted (ISO). */
  at: z.string(),
  /** The due time it acted on (ISO). */
  dueAt: z.string(),
  outcome: z.enum(SCHEDULE_RUN_OUTCOMES),
  analysisId: z.string().nullable(),
  reason: z.string().nullable(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

/** The crawl settings a schedule keeps (a validated crawl request; its URL is the domain's). */
export const scheduledCrawlSchema = z.object({
  url: z.string().optional(),
  maxPages: z.number(),
  crawlDelay: z.number(),
  userAgent: z.string(),
  headerBudget: z.number(),
  policyTarget: z.string(),
  urlList: z.array(z.string()),
  sitemapContent: z.string().optional(),
});

/** GET/PUT answer: the schedule (frequency 'off' when none was saved), its next run and its history. */
export const scheduleViewSchema = z.object({
  schedule: scheduleSchema,
  crawlRequest: scheduledCrawlSchema.nullable(),
  /** ISO; null when off. */
  nextRunAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  history: z.array(scheduleRunSchema),
});
export type ScheduleView = z.infer<typeof scheduleViewSchema>;
