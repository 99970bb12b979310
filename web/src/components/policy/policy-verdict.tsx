// The verdict on a policy, read from its audit: the spec's badge ('Security Issues' / 'Valid') and the
// grade (A+ to F), each with a tooltip saying what it is based on.

import type { Grade } from '@csp/shared/csp/grade';
import { type PolicyAudit, policyBadge } from '@csp/shared/csp/policy-audit';
import { TriangleAlert } from 'lucide-react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Tooltip } from '@/components/ui/tooltip';

const GRADE_VARIANTS: Record<Grade, BadgeVariant> = {
  'A+': 'success',
  A: 'success',
  B: 'info',
  C: 'warning',
  D: 'destructive',
  F: 'destructive',
};

export const GRADE_EXPLANATION =
  'From the audit findings: 100 points, minus 30 per high, 12 per medium and 3 per low kind of problem (lows at most 9). A+ is 100, A 90+, B 80+, C 65+, D 50+, F below.';

export function GradeBadge({
  audit,
  label = 'Grade',
}: {
  audit: Pick<PolicyAudit, 'grade' | 'score'>;
  label?: string;
}) {
  return (
    <Tooltip content={`Score ${audit.score}/100. ${GRADE_EXPLANATION}`}>
      <Badge
        variant={GRADE_VARIANTS[audit.grade]}
        tabIndex={0}
        data-testid="policy-grade"
        data-grade={audit.grade}
        className="tabular-nums"
      >
        {label} {audit.grade}
      </Badge>
    </Tooltip>
  );
}

/** Why the badge reads what it reads, in one sentence. */
function badgeReason(audit: PolicyAudit): string {
  const issues = audit.findings.filter(
    (f) => f.checker !== 'generator' && (f.severity === 'high' || f.severity === 'medium'),
  );
  if (issues.length > 0) {
    const first = issues[0]!;
    const more = issues.length > 1 ? ` and ${issues.length - 1} more (see Policy findings)` : '';
    return `${first.directive}${first.value ? ` ${first.value}` : ''}: ${first.description}${more}`;
  }
  if (audit.findings.some((f) => f.code === 'unsafe-inline-fallback')) {
    return "No high or medium finding. The 'unsafe-inline' here is ignored by current browsers because a nonce, hash or 'strict-dynamic' is present: it only keeps very old browsers working, so it is not a risk.";
  }
  return "No high or medium finding: no 'unsafe-inline' or 'unsafe-eval' that browsers apply, no over-broad source.";
}

export function PolicyVerdict({ audit }: { audit: PolicyAudit }) {
  const badge = policyBadge(audit);
  return (
    <>
      <Tooltip content={badgeReason(audit)}>
        {badge === 'Valid' ? (
          <Badge variant="success" data-testid="policy-badge" tabIndex={0}>
            Valid
          </Badge>
        ) : (
          <Badge variant="warning" data-testid="policy-badge" tabIndex={0}>
            <TriangleAlert className="size-3" aria-hidden="true" />
            Security Issues
          </Badge>
        )}
      </Tooltip>
      <GradeBadge audit={audit} />
    </>
  );
}
