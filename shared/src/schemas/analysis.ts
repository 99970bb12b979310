// Analyses (csp_analyses) and the crawl request that starts one (spec sections 3, 5, 7, 9). They build on the
// policy's own schemas (csp/policy.ts); csp/ never imports these back.
import * as z from 'zod';
import { policyAuditSchema, policyFindingSchema } from '../csp/audit-schemas';
import { cspRulesSchema, POLICY_TARGETS, policyBudgetSchema, resourceStatsSchema } from '../csp/policy';
import { unstableInlineSchema } from '../csp/stability';
import { CRAWL_LIMITS } from './crawl-limits';
import { httpUrl } from './domain';
import { subresourceIntegritySchema } from './subresource-integrity';
import { trustedTypesDryRunSchema } from './trusted-types';

const { maxPages, crawlDelay, headerBudget } = CRAWL_LIMITS;

export const ANALYSIS_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export const analysisStatusSchema = z.enum(ANALYSIS_STATUSES);

/** Who started an analysis: a person on the web app, a domain's schedule, or an API token. */
export const ANALYSIS_TRIGGERS = ['user', 'schedule', 'api'] as const;
export const analysisTriggerSchema = z.enum(ANALYSIS_TRIGGERS);
export type AnalysisTrigger = z.infer<typeof analysisTriggerSchema>;
export type AnalysisStatus = z.infer<typeof analysisStatusSchema>;

export const crawlRequestSchema = z
  .object({
    url: httpUrl('Please enter a valid URL').optional(),
    urlList: z
      .array(httpUrl('Every URL in the list must be a valid http(s) URL'))
      .max(CRAWL_LIMITS.urlList.max, `The URL list may hold ${CRAWL_LIMITS.urlList.max} URLs at most`)
      .optional()
      .default([]),
    // Kept in the analysis item (400 KB DynamoDB limit): larger sitemaps are given by URL instead.
    sitemapContent: z
      .string()
      .max(
        CRAWL_LIMITS.sitemapContent.maxChars,
        'Sitemap content is too large (300 KB at most): give the sitemap URL instead',
      )
      .optional(),
    maxPages: z.coerce
      .number({ message: 'maxPages must be a number' })
      .int('maxPages must be a whole number')
      .min(maxPages.min, `maxPages must be between ${maxPages.min} and ${maxPages.max}`)
      .max(maxPages.max, `maxPages must be between ${maxPages.min} and ${maxPages.max}`)
      .default(maxPages.default),
    crawlDelay: z.coerce
      .number({ message: 'crawlDelay must be a number' })
      .int('crawlDelay must be a whole number')
      .min(crawlDelay.min, `crawlDelay must be between ${crawlDelay.min} and ${crawlDelay.max} ms`)
      .max(crawlDelay.max, `crawlDelay must be between ${crawlDelay.min} and ${crawlDelay.max} ms`)
      .default(crawlDelay.default),
    userAgent: z
      .string()
      .trim()
      .max(CRAWL_LIMITS.userAgent.maxChars, 'User agent is too long')
      .optional()
      .default(''),
    /** Bytes the whole `Content-Security-Policy: …` header line may take (nginx proxy buffers). */
    headerBudget: z.coerce
      .number({ message: 'headerBudget must be a number' })
      .int('headerBudget must be a whole number')
      .min(headerBudget.min, `headerBudget must be between ${headerBudget.min} and ${headerBudget.max} bytes`)
      .max(headerBudget.max, `headerBudget must be between ${headerBudget.min} and ${headerBudget.max} bytes`)
      .default(headerBudget.default),
    /** 'cloudfront': the policy goes into a CloudFront response-headers policy (1,783 characters). */
    policyTarget: z
      .enum(POLICY_TARGETS, { message: "policyTarget must be 'header' or 'cloudfront'" })
      .default('header'),
  })
  .refine((v) => Boolean(v.url) || v.urlList.length > 0 || Boolean(v.sitemapContent?.trim()), {
    message: 'Please provide a URL, URL list, or sitemap content.',
    path: ['url'],
  });
export type CrawlRequest = z.infer<typeof crawlRequestSchema>;

export const startAnalysisSchema = z.object({
  domainId: z.string().min(1, 'domainId is required').max(64),
  // Checked by the route as crawlRequestSchema once the domain's own URL is set in it (any url sent is
  // replaced), so its messages name the fields as the crawl form does.
  crawlRequest: z.record(z.string(), z.unknown()).optional().default({}).meta({
    description: "The crawl settings of POST /api/csp/analyze, without url: the domain's URL is crawled.",
  }),
});

/** The engines self-verification can run in: Chromium always, Firefox where it is installed. */
export const verificationEngineSchema = z.enum(['chromium', 'firefox']);
export type VerificationEngine = z.infer<typeof verificationEngineSchema>;

/** One thing the verified policy still blocked: what, under which directive, on which page. */
export const blockedItemSchema = z.object({
  directive: z.string(),
  /** Blocked URL, or 'inline' / 'eval' / 'wasm-eval'. */
  blocked: z.string(),
  page: z.string(),
  /** First characters of inline code, when the browser gave them. */
  sample: z.string().optional(),
  /** The engine that blocked it (absent: Chromium). */
  engine: verificationEngineSchema.optional(),
});
export type BlockedItem = z.infer<typeof blockedItemSchema>;

/** What one engine verified of the policy handed out (its last pass), or why it could not be used. */
export const engineVerificationSchema = z.object({
  engine: verificationEngineSchema,
  /** The browser that ran it, e.g. "firefox/153.7.0". */
  version: z.string().max(100).optional(),
  /** Why this engine verified nothing (not installed, not in AWS, failed to start); absent when it ran. */
  unavailable: z.string().max(500).optional(),
  pagesChecked: z.number().int().optional(),
  violations: z.number().int().optional(),
});
export type EngineVerification = z.infer<typeof engineVerificationSchema>;

/**
 * Result of re-loading a sample of pages with the generated policy (self-verification), with the same
 * interaction as the crawl. When the first pass saw violations, the policy was refined once with what it
 * saw and verified again: `violations`/`remaining` describe the policy handed out, `firstPassViolations`
 * what the first pass saw.
 */
export const verificationSchema = z.object({
  pagesChecked: z.number().int(),
  violations: z.number().int(),
  samples: z.array(z.string()).default([]),
  /** Distinct violations of the first pass (before refinement); absent on old analyses. */
  firstPassViolations: z.number().int().optional(),
  /** The policy was refined from what the first pass saw. */
  refined: z.boolean().optional(),
  /** What the handed-out policy still blocks (empty when it holds). */
  remaining: z.array(blockedItemSchema).optional(),
  /** Per engine: what it verified of the handed-out policy, or why it could not be used. */
  engines: z.array(engineVerificationSchema).optional(),
});
export type Verification = z.infer<typeof verificationSchema>;

/** A page whose capture did not finish, even after one retry in a fresh tab. */
export const incompletePageSchema = z.object({ url: z.string(), reason: z.string() });

/** An observation that only appeared after the crawler acted on the page. */
export const interactionItemSchema = z.object({ directive: z.string(), value: z.string(), page: z.string() });

/** How complete and how trustworthy the crawl's capture was (shown in the analysis). */
export const captureSummarySchema = z.object({
  pagesCaptured: z.number().int(),
  /** Of `pagesCaptured`, those that answered an HTTP error (nothing of them is in the policy). */
  pagesFailed: z.number().int().optional(),
  /** URLs tried beside `pagesCaptured` that gave no page at all (no answer, another site). */
  urlsFailed: z.number().int().optional(),
  /** Pages listed in `incomplete`. */
  pagesIncomplete: z.number().int(),
  incomplete: z.array(incompletePageSchema),
  /** Observations that needed interaction (opening, hovering, selecting…), and the first of them. */
  interactionObservations: z.number().int(),
  interactionSamples: z.array(interactionItemSchema),
  /** Requests other than GET/HEAD that interaction triggered: answered by the crawler, never sent. */
  writesAnswered: z.number().int(),
  /** Navigations that interaction triggered: blocked (same-site targets were queued as pages). */
  navigationsBlocked: z.number().int(),
  /** Pages loaded a second time, in a fresh browser context, to find inline code that changes per load. */
  pagesRerendered: z.number().int(),
  unstableInline: z.array(unstableInlineSchema),
  /** Time spent acting on pages and re-rendering them (ms, summed over tabs). */
  interactionMs: z.number().int(),
  rerenderMs: z.number().int(),
});
export type CaptureSummary = z.infer<typeof captureSummarySchema>;

/** What the crawler is doing, shown as the analysis' stage. */
export const ANALYSIS_STAGES = [
  'queued',
  'discovering',
  'crawling',
  'rerendering',
  'generating',
  'verifying',
] as const;
export const analysisStageSchema = z.enum(ANALYSIS_STAGES);
export type AnalysisStage = z.infer<typeof analysisStageSchema>;

export const analysisSchema = z.object({
  id: z.string(),
  domainId: z.string().nullable(),
  userId: z.string(),
  url: z.string(),
  status: analysisStatusSchema,
  progress: z.number().int().min(0).max(100),
  totalPages: z.number().int(),
  currentPage: z.string().nullable(),
  cspRules: cspRulesSchema.nullable(),
  strictCspRules: cspRulesSchema.nullable().optional(),
  resourceStats: resourceStatsSchema.nullable(),
  errors: z.array(z.string()),
  userAgent: z.string(),
  maxPages: z.number().int(),
  crawlDelay: z.number().int(),
  verification: verificationSchema.nullable().optional(),
  /** The phase the crawler is in while pending/running ('queued': waiting for one of the user's slots). */
  stage: analysisStageSchema.nullable().optional(),
  /**
   * While the analysis waits to crawl (pending or queued): its place among its user's waiting analyses,
   * oldest first (1 = next). Null otherwise.
   */
  queuePosition: z.number().int().min(1).nullable().optional(),
  /** The generator's findings about the allowlist policy: trades made to fit the budget, unstable code, incompleteness. */
  findings: z.array(policyFindingSchema).optional(),
  /** The audit of the allowlist policy (its findings include the generator's): grade, issues, badge. */
  audit: policyAuditSchema.nullable().optional(),
  /** The audit of the strict policy. */
  strictAudit: policyAuditSchema.nullable().optional(),
  capture: captureSummarySchema.nullable().optional(),
  budget: policyBudgetSchema.nullable().optional(),
  /** The policy needs a person's attention before it is enforced (verification still saw violations…). */
  needsAttention: z.boolean().optional(),
  /** What `require-trusted-types-for 'script'` would block on the crawled pages (absent on older analyses). */
  trustedTypes: trustedTypesDryRunSchema.nullable().optional(),
  /** Subresource Integrity proposed for the crawled external scripts and stylesheets (absent on older analyses). */
  subresourceIntegrity: subresourceIntegritySchema.nullable().optional(),
  /** Who started it (absent on analyses from before triggers were recorded: a user). */
  trigger: analysisTriggerSchema.optional(),
  createdAt: z.string(),
  startedAt: z.string().nullable().optional(),
  completedAt: z.string().nullable(),
});
export type Analysis = z.infer<typeof analysisSchema>;
