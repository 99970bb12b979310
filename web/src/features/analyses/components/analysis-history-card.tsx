// Domain screen 'Analysis History': the 10 most recent analyses, with 'View' on completed ones, and
// 'Start Your First Analysis' when there are none.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { History } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { AnalysisStatusBadge } from '@/components/analysis-status-badge';
import { Alert } from '@/components/ui/alert';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ListTable, ROW_LINK_STRETCH, RowChevronLink } from '@/components/ui/list-table';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount, formatDate, formatDateTime, formatTime } from '@/lib/format';
import { isInProgressStatus, monotonicProgress, queuePositionLabel } from '../utils/progress';

export const ANALYSIS_HISTORY_LIMIT = 10;

export function AnalysisHistoryCard({
  analyses,
  loading = false,
  error,
  emptyAction,
}: {
  analyses: Analysis[];
  loading?: boolean;
  error?: Error | null;
  emptyAction: ReactNode;
}) {
  const recent = analyses.slice(0, ANALYSIS_HISTORY_LIMIT);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History className="size-4 text-primary" aria-hidden="true" />
          Analysis History
        </CardTitle>
        <CardDescription>
          {analyses.length > ANALYSIS_HISTORY_LIMIT
            ? `The ${ANALYSIS_HISTORY_LIMIT} most recent of ${formatCount(analyses.length)} analyses.`
            : 'Every crawl of this domain, newest first.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error ? (
          <Alert tone="error" role="alert">
            Could not load the analyses of this domain ({error.message}).
          </Alert>
        ) : loading ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading the analyses...">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </LoadingBlock>
        ) : recent.length === 0 ? (
          <EmptyState
            icon={History}
            title="No analyses yet"
            description="Run the first crawl of this domain to generate its Content Security Policy."
            action={emptyAction}
          />
        ) : (
          <ListTable
            testId="analysis-history"
            head={
              <>
                <th scope="col" className="w-full py-2.5 pr-3 pl-5 font-medium sm:pl-6">
                  Started
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  Status
                </th>
                <th scope="col" className="hidden px-3 py-2.5 text-right font-medium sm:table-cell">
                  Pages
                </th>
                <th scope="col" className="hidden px-3 py-2.5 text-right font-medium md:table-cell">
                  Resources
                </th>
                <th scope="col" className="hidden px-3 py-2.5 text-right font-medium md:table-cell">
                  Issues
                </th>
                <th scope="col" className="py-2.5 pr-5 pl-3 sm:pr-6">
                  <span className="sr-only">Open</span>
                </th>
              </>
            }
          >
            {recent.map((analysis) => (
              <HistoryRow key={analysis.id} analysis={analysis} />
            ))}
          </ListTable>
        )}
      </CardContent>
    </Card>
  );
}

function HistoryRow({ analysis }: { analysis: Analysis }) {
  const running = isInProgressStatus(analysis.status);
  const stats = analysis.resourceStats;
  return (
    <tr
      className="relative transition-colors hover:bg-slate-50/70"
      data-testid="history-row"
      data-status={analysis.status}
    >
      <td className="max-w-0 py-3 pr-3 pl-5 sm:pl-6">
        <span className="block truncate text-foreground">
          <span className="sm:hidden">{formatDate(analysis.createdAt)}</span>
          <span className="hidden sm:inline">{formatDateTime(analysis.createdAt)}</span>
        </span>
        {running ? (
          <Progress
            value={analysis.status === 'pending' ? undefined : monotonicProgress(analysis)}
            className="mt-1.5 h-1.5 max-w-48"
            label={`Progress of the analysis started ${formatDateTime(analysis.createdAt)}`}
          />
        ) : null}
        {running && queuePositionLabel(analysis) ? (
          <span
            className="mt-1 block truncate text-xs font-medium text-foreground"
            data-testid="queue-position"
          >
            {queuePositionLabel(analysis)}
          </span>
        ) : null}
        {running ? null : (
          <span className="block truncate text-xs text-muted-foreground sm:hidden">
            {formatTime(analysis.createdAt)} · {formatCount(analysis.totalPages)} pages
          </span>
        )}
      </td>
      <td className="px-3 py-3 whitespace-nowrap">
        <AnalysisStatusBadge status={analysis.status} />
      </td>
      <td className="hidden px-3 py-3 text-right tabular-nums sm:table-cell">
        {formatCount(analysis.totalPages)}
      </td>
      <td className="hidden px-3 py-3 text-right tabular-nums md:table-cell">
        {stats ? formatCount(stats.totalResources) : '—'}
      </td>
      <td className="hidden px-3 py-3 text-right tabular-nums md:table-cell">
        {stats ? (
          <span className={stats.securityIssues > 0 ? 'font-medium text-amber-700' : undefined}>
            {formatCount(stats.securityIssues)}
          </span>
        ) : (
          '—'
        )}
      </td>
      <td className="py-3 pr-5 pl-3 text-right whitespace-nowrap sm:pr-6">
        {analysis.status === 'completed' ? (
          <Link
            to={`/analysis/${analysis.id}`}
            className={buttonVariants({ variant: 'outline', size: 'sm', className: ROW_LINK_STRETCH })}
          >
            View
          </Link>
        ) : (
          <RowChevronLink
            to={`/analysis/${analysis.id}`}
            label={`Details of the analysis started ${formatDateTime(analysis.createdAt)}`}
            className={ROW_LINK_STRETCH}
          />
        )}
      </td>
    </tr>
  );
}
