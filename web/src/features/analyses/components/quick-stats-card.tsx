// Domain screen 'Quick Stats': total analyses, success rate (percent completed, or N/A) and status.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ChartBar } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount } from '@/lib/format';

/** Spec section 9: the percent of completed analyses, or N/A when there are none. */
export function successRate(analyses: Pick<Analysis, 'status'>[]): string {
  if (analyses.length === 0) return 'N/A';
  const completed = analyses.filter((a) => a.status === 'completed').length;
  return `${Math.round((completed / analyses.length) * 100)}%`;
}

export function QuickStatsCard({ analyses, status }: { analyses: Analysis[]; status: ReactNode }) {
  const rows: Array<[string, ReactNode]> = [
    ['Total analyses', formatCount(analyses.length)],
    ['Success rate', successRate(analyses)],
    ['Status', status],
  ];
  return (
    <Card>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-center gap-2">
          <ChartBar className="size-4 text-primary" aria-hidden="true" />
          Quick Stats
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col divide-y divide-border" data-testid="quick-stats">
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
