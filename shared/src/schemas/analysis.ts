// Analyses (csp_analyses) and the crawl request that starts one (spec sections 3, 5, 7, 9).
import { z } from 'zod';
import { httpUrl } from './domain';

export const ANALYSIS_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export const analysisStatusSchema = z.enum(ANALYSIS_STATUSES);
export type AnalysisStatus = z.infer<typeof analysisStatusSchema>;

export const crawlRequestSchema = z
  .object({
    url: httpUrl('Please enter a valid URL').optional(),
    urlList: z
      .array(httpUrl('Every URL in the list must be a valid http(s) URL'))
      .max(500)
      .optional()
      .default([]),
    // Kept in the analysis item (400 KB DynamoDB limit): larger sitemaps are given by URL instead.
    sitemapContent: z
      .string()
      .max(300_000, 'Sitemap content is too large (300 KB at most): give the sitemap URL instead')
      .optional(),
    maxPages: z.coerce
      .number({ message: 'maxPages must be a number' })
      .int('maxPages must be a whole number')
      .min(1, 'maxPages must be between 1 and 500')
      .max(500, 'maxPages must be between 1 and 500')
      .default(50),
    crawlDelay: z.coerce
      .number({ message: 'crawlDelay must be a number' })
      .int('crawlDelay must be a whole number')
      .min(0, 'crawlDelay must be between 0 and 5000 ms')
      .max(5000, 'crawlDelay must be between 0 and 5000 ms')
      .default(1000),
    userAgent: z.string().trim().max(512, 'User agent is too long').optional().default(''),
  })
  .refine((v) => Boolean(v.url) || v.urlList.length > 0 || Boolean(v.sitemapContent?.trim()), {
    message: 'Please provide a URL, URL list, or sitemap content.',
    path: ['url'],
  });
export type CrawlRequest = z.infer<typeof crawlRequestSchema>;

export const startAnalysisSchema = z.object({
  domainId: z.string().min(1, 'domainId is required').max(64),
  crawlRequest: z.record(z.string(), z.unknown()).optional().default({}),
});

export const cspRulesSchema = z.record(z.string(), z.array(z.string()));
export type CspRules = z.infer<typeof cspRulesSchema>;

export const resourceStatsSchema = z.object({
  totalResources: z.number().int(),
  uniqueDomains: z.number().int(),
  securityIssues: z.number().int(),
});
export type ResourceStats = z.infer<typeof resourceStatsSchema>;

/** Result of re-loading a sample of pages with the generated policy (self-verification). */
export const verificationSchema = z.object({
  pagesChecked: z.number().int(),
  violations: z.number().int(),
  samples: z.array(z.string()).default([]),
});

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
  createdAt: z.string(),
  startedAt: z.string().nullable().optional(),
  completedAt: z.string().nullable(),
});
export type Analysis = z.infer<typeof analysisSchema>;
