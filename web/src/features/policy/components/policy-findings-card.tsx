// 'Policy findings': the shown policy's audit, most severe first — what each finding is, where it came from
// (our checks, Google's CSP Evaluator, or the generator explaining why a source is there or what it traded
// to fit the header) and how to fix it. The grade and the Issues count are computed from the same list.

import { compareFindings, type PolicyFinding, SEVERITIES } from '@csp/shared/csp/finding';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import { ListChecks, SearchCheck } from 'lucide-react';
import { GradeBadge } from '@/components/policy/policy-verdict';
import { SeverityBadge } from '@/components/policy/severity-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { formatCount } from '@/lib/format';

const CHECKERS: Record<PolicyFinding['checker'], string> = {
  audit: 'Policy check',
  csp_evaluator: 'CSP Evaluator',
  generator: 'Generator',
};

export function PolicyFindingsCard({ audit, policy }: { audit: PolicyAudit; policy: string }) {
  const findings = audit.findings;
  const sorted = [...findings].sort(compareFindings);
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const).filter(
    ([, n]) => n > 0,
  );
  return (
    <Card data-testid="policy-findings" id="policy-findings">
      <CardHeader actions={<GradeBadge audit={audit} />}>
        <CardTitle className="flex items-center gap-2">
          <ListChecks className="size-4 text-primary" aria-hidden="true" />
          Policy findings
        </CardTitle>
        <CardDescription>
          {findings.length === 0
            ? `About the ${policy}.`
            : `About the ${policy}: ${counts.map(([s, n]) => `${formatCount(n)} ${s}`).join(', ')}.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {sorted.length === 0 ? (
          <EmptyState
            icon={SearchCheck}
            title="No findings"
            description="Nothing in this policy needed a comment: no risky source and nothing left out."
            className="py-8"
          />
        ) : (
          <ul className="flex flex-col divide-y divide-border" aria-label="Policy findings">
            {sorted.map((f) => (
              <li
                key={`${f.checker}:${f.code}:${f.directive}:${f.value ?? ''}:${f.description}`}
                className="flex flex-col gap-1.5 py-3 first:pt-0 last:pb-0"
                data-testid="finding"
                data-severity={f.severity}
                data-code={f.code}
              >
                <div className="flex min-w-0 flex-wrap items-center gap-2">
                  <SeverityBadge severity={f.severity} />
                  <span className="font-mono text-xs font-medium [overflow-wrap:anywhere] text-foreground">
                    {f.directive || 'whole policy'}
                  </span>
                  {f.value ? (
                    <code className="min-w-0 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] [overflow-wrap:anywhere] text-slate-700">
                      {f.value}
                    </code>
                  ) : null}
                  <span className="ml-auto text-[11px] text-muted-foreground">{CHECKERS[f.checker]}</span>
                </div>
                <p className="text-sm text-muted-foreground">{f.description}</p>
                {f.fix ? (
                  <p className="text-sm text-foreground">
                    <span className="font-medium">Fix: </span>
                    {f.fix}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
