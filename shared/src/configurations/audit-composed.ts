// The audit of what a configuration sends: the grade and findings the panel and the API show. A module of
// its own: the audit (csp_evaluator's checks with ours) is the heaviest code of the policy's, and the rules
// generator's page runs it in a worker, so the page's own modules go without it.
import { auditPolicy } from '../csp/audit';
import type { PolicyAudit } from '../csp/policy-audit';
import { type ComposedPolicy, composedAuditContext, type SiteFacts } from './compose';

export function auditComposed(p: ComposedPolicy, facts: SiteFacts = {}): PolicyAudit {
  return auditPolicy(p.rules, composedAuditContext(p, facts));
}
