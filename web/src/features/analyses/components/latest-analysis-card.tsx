// Domain screen 'Latest Analysis': status, date, resources, and 'View Results' when completed.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ArrowRight, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AnalysisStatusBadge } from '@/components/analysis-status-badge';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCount, formatDateTime } from '@/lib/format';
import { isInProgressStatus } from '../utils/progress';

export function LatestAnalysisCard({ analysis }: { analysis: Analysis | undefined }) {
  return (
    <Card>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-center gap-2">
          <Clock className="size-4 text-primary" aria-hidden="true" />
          Latest Analysis
        </CardTitle>
      </CardHeader>
      <CardContent>
        {analysis ? (
          <div className="flex flex-col gap-4" data-testid="latest-analysis">
            <dl className="flex flex-col divide-y divide-border">
              <Row label="Status" value={<AnalysisStatusBadge status={analysis.status} />} />
              <Row label="Date" value={formatDateTime(analysis.createdAt)} />
              <Row
                label="Resources"
                value={analysis.resourceStats ? formatCount(analysis.resourceStats.totalResources) : '—'}
              />
            </dl>
            {analysis.status === 'completed' ? (
              <Link to={`/analysis/${analysis.id}`} className={buttonVariants({ className: 'w-full' })}>
                View Results
                <ArrowRight aria-hidden="true" />
              </Link>
            ) : isInProgressStatus(analysis.status) || analysis.status === 'failed' ? (
              <Link
                to={`/analysis/${analysis.id}`}
                className={buttonVariants({ variant: 'outline', className: 'w-full' })}
              >
                {analysis.status === 'failed' ? 'See what went wrong' : 'View Progress'}
                <ArrowRight aria-hidden="true" />
              </Link>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">No analysis has been run for this domain yet.</p>
        )}
      </CardContent>
    </Card>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2.5 first:pt-0 last:pb-0">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-right text-sm font-medium tabular-nums text-foreground">{value}</dd>
    </div>
  );
}
