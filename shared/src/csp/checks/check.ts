// What every policy check is: a small function `(policy, context) => PolicyFinding[]`, as in Google's
// csp_evaluator, over a policy parsed once into its written and its effective form.
import * as z from 'zod';
import { dictionary } from '../../maps/dictionary';
import { type PolicyFinding, policyFindingSchema } from '../audit-schemas';
import { ignoredSources } from '../directives';
import type { CspRules } from '../policy';

export const auditContextSchema = z.object({
  /** What the generator said about the policy (why sources are there, trades, unstable code). */
  generatorFindings: z.array(policyFindingSchema).default([]),
  /** The policy is delivered as Content-Security-Policy-Report-Only: it blocks nothing. */
  reportOnly: z.boolean().default(false),
  /**
   * How a nonce in the policy reaches responses: 'template' (a placeholder the app replaces per response),
   * 'per-request' (the server makes a fresh one per response), 'static' (written into configuration, the
   * same for every response).
   */
  nonceDelivery: z.enum(['template', 'per-request', 'static']).default('template'),
  /**
   * The product's own report endpoint (the report-uri it writes into the policy), when known: findings
   * about it are information, as for loopback and private sources (checks/local-sources.ts).
   */
  productEndpoint: z.string().nullable().default(null),
  /** Integrity-Policy sent with the policy (checks/integrity.ts). */
  integrityPolicy: z.enum(['off', 'report-only', 'enforce']).default('off'),
  /**
   * External scripts the site is known to load without integrity metadata (null: not known). An enforced
   * Integrity-Policy refuses each of them.
   */
  scriptsWithoutIntegrity: z.number().int().nonnegative().nullable().default(null),
  /** require-trusted-types-for 'script' sent with the policy, in this policy or a header of its own. */
  trustedTypes: z.enum(['off', 'report-only', 'enforce']).default('off'),
  /** The base analysis's Trusted Types dry run verdict, when there is one. */
  trustedTypesReadiness: z.enum(['ready', 'default-policy', 'far']).nullable().default(null),
});
export type AuditContext = z.infer<typeof auditContextSchema>;

/** A policy as written and as a CSP3 browser applies it (ignored fallbacks removed). */
export interface ParsedPolicy {
  /** As written, with keywords in lower case. */
  rules: CspRules;
  /** directive → sources a CSP3 browser honours. */
  effective: CspRules;
  /** directive → sources a CSP3 browser ignores there ('unsafe-inline' beside a nonce, …). */
  ignored: Map<string, Set<string>>;
}

export type PolicyCheck = (policy: ParsedPolicy, context: AuditContext) => PolicyFinding[];

const KEYWORD_LIKE = /^'[a-z-]+'$/i;

export function parsePolicy(rules: CspRules): ParsedPolicy {
  // Stored directive names may be anything a user saved: dictionaries, so none reads as an inherited name.
  const normalized = dictionary<string[]>();
  const effective = dictionary<string[]>();
  const ignored = new Map<string, Set<string>>();
  for (const [directive, written] of Object.entries(rules)) {
    // Keywords are case-insensitive ('SELF' is 'self'); nonce and hash values are not.
    const sources = written.map((s) => (KEYWORD_LIKE.test(s) ? s.toLowerCase() : s));
    const dropped = ignoredSources(directive, sources);
    normalized[directive] = sources;
    if (dropped.size) ignored.set(directive, dropped);
    effective[directive] = dropped.size ? sources.filter((s) => !dropped.has(s)) : [...sources];
  }
  return { rules: normalized, effective, ignored };
}

/** A finding of one of our own checks. */
export function auditFinding(f: Omit<PolicyFinding, 'checker'>): PolicyFinding {
  return { ...f, checker: 'audit' };
}

/** The directive whose sources govern scripts when script-src is absent (CSP fallback). */
export function scriptDirectiveOf(rules: CspRules): string | undefined {
  if (rules['script-src']) return 'script-src';
  if (rules['default-src']) return 'default-src';
  return undefined;
}
