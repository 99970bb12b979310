// Standalone generator 'Analysis Summary': pages, total resources, unique domains, security issues and the
// analysis time (completedAt − startedAt, or N/A).
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ChartBar } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { durationBetween, formatCount } from '@/lib/format';

export function AnalysisSummaryCard({ analysis }: { analysis: Analysis }) {
  const stats = analysis.resourceStats;
  const count = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));
  const issues = stats?.securityIssues;
  const rows: Array<[string, ReactNode]> = [
    ['Pages Crawled', formatCount(analysis.totalPages)],
    ['Total Resources', count(stats?.totalResources)],
    ['Unique Domains', count(stats?.uniqueDomains)],
    [
      'Security Issues',
      <span key="issues" className={issues ? 'text-amber-700' : undefined}>
        {count(issues)}
      </span>,
    ],
    ['Analysis Time', durationBetween(analysis.startedAt, analysis.completedAt) ?? 'N/A'],
  ];
  return (
    <Card>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-center gap-2">
          <ChartBar className="size-4 text-primary" aria-hidden="true" />
          Analysis Summary
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col divide-y divide-border" data-testid="analysis-summary">
          {rows.map(([label, value]) => (
            <div key={label} className="flex items-center justify-between gap-4 py-2.5 first:pt-0 last:pb-0">
              <dt className="text-sm text-muted-foreground">{label}</dt>
              <dd className="text-sm font-semibold tabular-nums text-foreground">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
