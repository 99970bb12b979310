// A policy as the product keeps it — its directives and sources, where it will be deployed and whether it
// fits there — and the resource figures read from a crawl. Everything in csp/ reads these; the analysis
// schemas (schemas/analysis.ts) build on them, never the other way round.
import * as z from 'zod';

export const cspRulesSchema = z.record(z.string(), z.array(z.string()));
export type CspRules = z.infer<typeof cspRulesSchema>;

/**
 * Where the policy will be deployed. 'header': a web server or proxy sends it (the budget is the header
 * line in bytes). 'cloudfront': a CloudFront response-headers policy, which caps the CSP value at 1,783
 * characters (CLOUDFRONT_CSP_MAX) whatever the budget says.
 */
export const POLICY_TARGETS = ['header', 'cloudfront'] as const;
export type PolicyTarget = (typeof POLICY_TARGETS)[number];

/** The header budget the policy was fitted to, and how long the header came out. */
export const policyBudgetSchema = z.object({
  target: z.enum(POLICY_TARGETS),
  /** Bytes of the header line ('header') or characters of the value ('cloudfront'). */
  limit: z.number().int(),
  length: z.number().int(),
  fits: z.boolean(),
});
export type PolicyBudget = z.infer<typeof policyBudgetSchema>;

export const resourceStatsSchema = z.object({
  totalResources: z.number().int(),
  uniqueDomains: z.number().int(),
  securityIssues: z.number().int(),
});
export type ResourceStats = z.infer<typeof resourceStatsSchema>;
