// A composed policy with its audit, both from one request: the audit is worked out in a worker
// (api/audit-policy.ts), so neither the panel's first view nor a keystroke in a field waits for it. null
// until the first one is done, and while there is no policy to show; after an edit, the previous pair is
// shown a moment longer.
import type { ComposedPolicy, SiteFacts } from '@csp/shared/configurations/compose';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import { startTransition, useEffect, useState } from 'react';
import { auditOffMainThread } from '../api/audit-policy';

export interface AuditedPolicy {
  composed: ComposedPolicy;
  audit: PolicyAudit;
}

export function usePolicyAudit(
  toAudit: { composed: ComposedPolicy; facts: SiteFacts } | null,
): AuditedPolicy | null {
  const [audited, setAudited] = useState<AuditedPolicy | null>(null);
  useEffect(() => {
    if (!toAudit) {
      setAudited(null);
      return;
    }
    // Only the latest policy's audit is shown: one that answers after a newer edit is dropped.
    let latest = true;
    auditOffMainThread(toAudit.composed, toAudit.facts).then(
      (audit) => {
        // The policy view (directive cards, issues, server file) renders in slices the page answers between.
        if (latest) startTransition(() => setAudited({ composed: toAudit.composed, audit }));
      },
      (error: unknown) => console.error('The policy audit failed', error),
    );
    return () => {
      latest = false;
    };
  }, [toAudit]);
  return audited;
}
