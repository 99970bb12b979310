// What a completed analysis adds to its owner's achievement counters: one more analysis, and what its
// policies earned. Read from the audits of the policies (analyses/outcome.ts), which the crawl writer makes
// itself from the policies it is handed (crawl-writer/writer.ts).
import type { PolicyAudit } from '../csp/policy-audit';
import type { Verification } from '../schemas/analysis';
import type { Counters } from './catalogue';

export function achievementsOfCompletedRun(
  audit: PolicyAudit,
  strictAudit: PolicyAudit | null,
  verification: Verification,
): Counters {
  // A policy with security issues (badge 'Security Issues', grade B or lower) earns no praise for being
  // clean or verified: the achievements follow the grade.
  const valid = audit.issues === 0;
  return {
    analyses: 1,
    cleanPolicies: valid && !audit.findings.some((f) => f.code === 'unsafe-inline') ? 1 : 0,
    verifiedClean: valid && verification.pagesChecked > 0 && verification.violations === 0 ? 1 : 0,
    aPlus: audit.grade === 'A+' || strictAudit?.grade === 'A+' ? 1 : 0,
  };
}
