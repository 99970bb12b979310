// What a finished crawl comes to, judged in one place: the allowlist and strict policies generated from the
// artifact, their findings (with the verification's own), the audits, the resource figures, the analysis'
// error lines, whether it needs a person's attention, and the achievements it earns. Pure: the crawler
// gathers (crawl, verification in a browser, one refinement) and stores, and calls these between.
//
// The steps around the crawler's I/O:
//   policyToVerify(artifact)          → the header the first verification tries (report-only, no reporting)
//   verify it; when it saw violations, refine the artifact with what it saw (crawler/refine.ts) and
//   policyToVerify(refined)           → the header the second verification tries
//   analysisOutcome(crawl, verification) → everything the writer stores
import type { Counters } from '../achievements/catalogue';
import { achievementsOfCompletedRun } from '../achievements/completed-run';
import type { CrawlArtifact } from '../csp/artifact';
import { auditPolicy } from '../csp/audit';
import type { PolicyFinding } from '../csp/finding';
import { type GeneratedPolicy, generatePolicy } from '../csp/generate';
import type { CspRules, PolicyBudget, PolicyTarget, ResourceStats } from '../csp/policy';
import type { PolicyAudit } from '../csp/policy-audit';
import { REPORTING_GROUP, serializePolicy } from '../csp/serialize';
import { computeResourceStats } from '../csp/stats';
import type { BlockedItem, CaptureSummary, EngineVerification, Verification } from '../schemas/analysis';
import { CRAWL_LIMITS } from '../schemas/crawl-limits';

/** How the policies are generated: fitted to the deploy target's budget, reporting to the product or not. */
export interface OutcomeOptions {
  budget: { target: PolicyTarget; limit: number };
  /** Policies of a domain's analysis report to the product (report-uri, and report-to for the Reporting API). */
  reporting: { reportUri?: string; reportTo?: string };
}

/** The options of a crawl request's policies; `reportUri` only for the analysis of a domain. */
export function outcomeOptions(
  request: { policyTarget?: PolicyTarget; headerBudget?: number },
  reportUri: string | null | undefined,
): OutcomeOptions {
  return {
    budget: {
      target: request.policyTarget ?? 'header',
      limit: request.headerBudget ?? CRAWL_LIMITS.headerBudget.default,
    },
    reporting: reportUri ? { reportUri, reportTo: REPORTING_GROUP } : {},
  };
}

/** What one verification pass saw (crawler/verify.ts gives more; this is what the outcome reads). */
export interface VerificationPass {
  pagesChecked: number;
  /** Distinct violations seen. */
  violations: number;
  samples: string[];
  blocked: BlockedItem[];
  /** Sampled pages that could not be checked. */
  unchecked: string[];
}

/** The first pass, and the second when the policy was refined from what the first saw (else the first). */
export interface VerificationRounds {
  first: VerificationPass;
  final: VerificationPass;
  refined: boolean;
  /** Per engine: what it verified (its last pass), or why it could not be used. */
  engines?: EngineVerification[];
}

/** What the crawl gathered: the artifact the policies come from (refined when verification refined it). */
export interface GatheredCrawl {
  artifact: CrawlArtifact;
  capture: CaptureSummary;
  /** The crawl's own error lines, in order. */
  errors: readonly string[];
}

export interface AnalysisOutcome {
  rules: CspRules;
  strictRules: CspRules;
  /** The allowlist policy's generator findings, the verification's first when it still saw violations. */
  findings: PolicyFinding[];
  strictFindings: PolicyFinding[];
  audit: PolicyAudit;
  strictAudit: PolicyAudit | null;
  stats: ResourceStats;
  budget: PolicyBudget;
  verification: Verification;
  /** The analysis' error lines (uncut: the writer's request cuts them). */
  errors: string[];
  needsAttention: boolean;
  earned: Counters;
}

function allowlistPolicy(artifact: CrawlArtifact, options: OutcomeOptions): GeneratedPolicy {
  return generatePolicy(artifact, { mode: 'allowlist', budget: options.budget, ...options.reporting });
}

/**
 * The header value a verification tries: the allowlist policy without its reporting directives, since
 * verification reads violations in the page itself and the crawler must not post reports to the product.
 */
export function policyToVerify(artifact: CrawlArtifact, options: OutcomeOptions): string {
  return serializePolicy(withoutReporting(allowlistPolicy(artifact, options).rules));
}

function withoutReporting(rules: CspRules): CspRules {
  const { 'report-uri': _u, 'report-to': _t, ...rest } = rules;
  return rest;
}

export function analysisOutcome(
  crawl: GatheredCrawl,
  verification: VerificationRounds,
  options: OutcomeOptions,
): AnalysisOutcome {
  const allowlist = allowlistPolicy(crawl.artifact, options);
  const strict = generatePolicy(crawl.artifact, {
    mode: 'strict',
    budget: options.budget,
    ...options.reporting,
  });
  const { first, final, refined } = verification;

  const findings: PolicyFinding[] = [...allowlist.findings];
  const errors = [...crawl.errors];
  const incomplete = incompleteLine(crawl.capture);
  if (incomplete) errors.push(incomplete);
  if (final.violations > 0) {
    const where = new Set(final.blocked.map((b) => b.page));
    const text = `Verification: the policy still blocks ${final.violations} item(s) on ${where.size} page(s) (${final.samples.slice(0, 3).join('; ')}). Review them before enforcing it.`;
    errors.push(text);
    findings.unshift({
      severity: 'high',
      directive: '',
      code: 'verification-violations',
      value: String(final.violations),
      description: text,
      checker: 'generator',
    });
  }
  if (final.unchecked.length > 0) {
    errors.push(
      `Verification could not check ${final.unchecked.length} page(s): ${final.unchecked.slice(0, 3).join(', ')}`,
    );
  }
  const stored: Verification = {
    pagesChecked: final.pagesChecked,
    violations: final.violations,
    samples: final.samples,
    firstPassViolations: first.violations,
    refined,
    remaining: final.blocked,
    ...(verification.engines ? { engines: verification.engines } : {}),
  };
  const judged = judgeRun(
    { rules: allowlist.rules, findings, strictRules: strict.rules, strictFindings: strict.findings },
    stored,
    options.reporting.reportUri ?? null,
  );
  return {
    rules: allowlist.rules,
    strictRules: strict.rules,
    findings,
    strictFindings: strict.findings,
    audit: judged.audit,
    strictAudit: judged.strictAudit,
    // The resource stats count the audit's issues.
    stats: computeResourceStats(crawl.artifact, judged.audit),
    budget: allowlist.budget,
    verification: stored,
    errors,
    needsAttention:
      final.violations > 0 ||
      crawl.capture.pagesIncomplete > 0 ||
      !allowlist.budget.fits ||
      findings.some((f) => f.severity === 'high') ||
      judged.audit.findings.some(runsCodeFromData),
    earned: judged.earned,
  };
}

/** Directives where data: lets injected markup run any script (the broad-source check judges it high). */
const CODE_DIRECTIVES = new Set(['script-src', 'object-src', 'base-uri']);

/** The site loads code from data: URLs, so the policy allows data: where code runs: a person must look. */
function runsCodeFromData(f: PolicyFinding): boolean {
  return f.code === 'broad-source' && f.value === 'data:' && CODE_DIRECTIVES.has(f.directive);
}

/** A run's policies as the writer receives them. */
export interface RunPolicies {
  rules: CspRules;
  findings: PolicyFinding[];
  strictRules: CspRules | null;
  strictFindings: PolicyFinding[];
}

/**
 * One audit per policy, made from the policies themselves, and the achievements they earn. The crawl writer
 * calls this on what it is handed (its reading, not the crawler's word); analysisOutcome on what it made.
 * `reportUri` is the product's own endpoint the policies report to (the analysis' record holds it).
 */
export function judgeRun(
  policies: RunPolicies,
  verification: Verification,
  reportUri: string | null,
): { audit: PolicyAudit; strictAudit: PolicyAudit | null; earned: Counters } {
  const productEndpoint = reportUri;
  const audit = auditPolicy(policies.rules, { generatorFindings: policies.findings, productEndpoint });
  const strictAudit = policies.strictRules
    ? auditPolicy(policies.strictRules, { generatorFindings: policies.strictFindings, productEndpoint })
    : null;
  return { audit, strictAudit, earned: achievementsOfCompletedRun(audit, strictAudit, verification) };
}

/** "2 of 18 pages incomplete: …" for the analysis' error list, or null when every capture finished. */
export function incompleteLine(summary: CaptureSummary): string | null {
  if (summary.pagesIncomplete === 0) return null;
  const first = summary.incomplete
    .slice(0, 3)
    .map((p) => `${p.url} (${p.reason})`)
    .join('; ');
  return `${summary.pagesIncomplete} of ${summary.pagesCaptured} pages incomplete, so the policy may be incomplete: ${first}`;
}
