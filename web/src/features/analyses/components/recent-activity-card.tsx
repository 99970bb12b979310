// Dashboard "Recent Activity": the latest 5 analyses with url, created date and a status badge.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { byCodeUnits } from '@csp/shared/text/order';
import { Activity, ChevronRight } from 'lucide-react';
import { Link } from 'react-router-dom';
import { AnalysisStatusBadge, isActiveAnalysis } from '@/components/analysis-status-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Progress } from '@/components/ui/progress';
import { formatDateTime } from '@/lib/format';
import { monotonicProgress, queuePositionLabel } from '../utils/progress';

export const RECENT_ACTIVITY_LIMIT = 5;

export function RecentActivityCard({ analyses, error }: { analyses: Analysis[]; error?: Error | null }) {
  const recent = [...analyses]
    .sort((a, b) => byCodeUnits(b.createdAt, a.createdAt))
    .slice(0, RECENT_ACTIVITY_LIMIT);
  return (
    <Card className="flex flex-col">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Activity className="size-4 text-primary" aria-hidden="true" />
          Recent Activity
        </CardTitle>
        <CardDescription>Your latest CSP analyses.</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        {error ? (
          <p
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
            role="alert"
          >
            Could not load your analyses ({error.message}).
          </p>
        ) : recent.length === 0 ? (
          <EmptyState
            icon={Activity}
            title="No recent activity"
            description="Analyses you run will show up here."
          />
        ) : (
          <ul className="-mx-2 flex flex-col">
            {recent.map((analysis) => (
              <li key={analysis.id}>
                <Link
                  to={`/analysis/${analysis.id}`}
                  className="group flex items-center gap-3 rounded-lg px-2 py-2.5 transition-colors hover:bg-slate-50"
                  data-testid="activity-row"
                >
                  <div className="flex min-w-0 flex-1 flex-col gap-1">
                    <span className="truncate font-mono text-xs text-foreground">{analysis.url}</span>
                    <span className="text-xs text-muted-foreground">
                      {formatDateTime(analysis.createdAt)}
                    </span>
                    {queuePositionLabel(analysis) ? (
                      <span className="text-xs font-medium text-foreground" data-testid="queue-position">
                        {queuePositionLabel(analysis)}
                      </span>
                    ) : null}
                    {isActiveAnalysis(analysis.status) ? (
                      <Progress
                        value={analysis.status === 'pending' ? undefined : monotonicProgress(analysis)}
                        className="mt-1 h-1.5"
                        label={`Progress of the analysis of ${analysis.url}`}
                      />
                    ) : null}
                  </div>
                  <AnalysisStatusBadge status={analysis.status} />
                  <ChevronRight
                    className="size-4 shrink-0 text-slate-300 group-hover:text-slate-500"
                    aria-hidden="true"
                  />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
