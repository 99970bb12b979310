// What the page and the policy-audit worker say to each other.
import type { ComposedPolicy, SiteFacts } from '@csp/shared/configurations/compose';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';

export interface AuditRequest {
  id: number;
  composed: ComposedPolicy;
  facts: SiteFacts;
}
export type AuditResponse = { id: number; audit: PolicyAudit } | { id: number; error: string };
