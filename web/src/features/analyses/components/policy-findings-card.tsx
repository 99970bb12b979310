// 'Policy findings': what the generator and CSP Evaluator found about the allowlist policy, most severe
// first: why a risky source is there, what was traded to fit the header budget, what was left out.
import { compareFindings, type PolicyFinding, SEVERITIES } from '@csp/shared/csp/finding';
import { ListChecks, SearchCheck } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { formatCount } from '@/lib/format';
import { SeverityBadge } from './severity-badge';

export function PolicyFindingsCard({ findings }: { findings: PolicyFinding[] }) {
  const sorted = [...findings].sort(compareFindings);
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const).filter(
    ([, n]) => n > 0,
  );
  return (
    <Card data-testid="policy-findings">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ListChecks className="size-4 text-primary" aria-hidden="true" />
          Policy findings
        </CardTitle>
        <CardDescription>
          {findings.length === 0
            ? 'About the allowlist policy.'
            : `About the allowlist policy: ${counts.map(([s, n]) => `${formatCount(n)} ${s}`).join(', ')}.`}
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
              >
                <div className="flex min-w-0 flex-wrap items-center gap-2">
                  <SeverityBadge severity={f.severity} />
                  <span className="font-mono text-xs font-medium break-all text-foreground">
                    {f.directive || 'whole policy'}
                  </span>
                  {f.value ? (
                    <code className="min-w-0 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] break-all text-slate-700">
                      {f.value}
                    </code>
                  ) : null}
                </div>
                <p className="text-sm text-muted-foreground">{f.description}</p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
