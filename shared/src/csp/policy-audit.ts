// What a policy's audit is (stored with each analysis and configuration) and how a screen reads it, apart
// from the checks that produce it (audit.ts, with csp_evaluator): the domain screen and the dashboard show
// stored audits, and this is all they need to download.
import type { PolicyAudit } from './audit-schemas';
import { isIssue } from './grade';

// The audit's shape is a zod schema (audit-schemas.ts), apart from this module: the screens that show a
// grade or a badge load no zod.
export type { PolicyAudit } from './audit-schemas';

export const POLICY_BADGES = ['Security Issues', 'Valid'] as const;
export type PolicyBadge = (typeof POLICY_BADGES)[number];

/**
 * Spec: 'Security Issues' when a source has unsafe-inline or unsafe-eval (both are issues wherever a
 * browser applies them), otherwise 'Valid'. Read from the audit, so other issues of the same weight count
 * too and an 'unsafe-inline' that a nonce makes browsers ignore does not.
 */
export function policyBadge(audit: Pick<PolicyAudit, 'issues'>): PolicyBadge {
  return audit.issues > 0 ? 'Security Issues' : 'Valid';
}

/** Sources of a directive that a scored finding of severity high or medium names (highlighted in cards). */
export function issueSources(audit: Pick<PolicyAudit, 'findings'>, directive: string): Set<string> {
  const out = new Set<string>();
  for (const f of audit.findings) if (isIssue(f) && f.directive === directive && f.value) out.add(f.value);
  return out;
}
