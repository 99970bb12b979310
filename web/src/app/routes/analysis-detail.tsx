// /analysis/:id (spec "Analysis detail"): headline tiles, status and timestamps, then by state the crawling
// progress, the generated policy, the failure, or a neutral message; 'Analysis Not Found' for a 404.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ArrowLeft, CircleHelp, FileQuestion, RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { AnalysisResults } from '@/app/analysis-results';
import { AnalysisStatusBadge } from '@/components/analysis-status-badge';
import { Alert } from '@/components/ui/alert';
import { BackLink } from '@/components/ui/back-link';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { isNotFoundError, useAnalysis } from '@/features/analyses/api/get-analysis';
import { AnalysisErrorsCard } from '@/features/analyses/components/analysis-errors';
import { AnalysisFailedCard } from '@/features/analyses/components/analysis-failed-card';
import { AnalysisProgressCard } from '@/features/analyses/components/analysis-progress-card';
import { AnalysisTiles } from '@/features/analyses/components/analysis-tiles';
import { isPolledStatus } from '@/features/analyses/utils/progress';
import { durationBetween, formatDateTime, hostOf } from '@/lib/format';

function AnalysisBackLink({ analysis }: { analysis?: Analysis | null | undefined }) {
  const domainId = analysis?.domainId;
  return domainId ? <BackLink to={`/domains/${domainId}`}>Back to Domain</BackLink> : <BackLink />;
}

function CenteredMessage({
  icon: Icon,
  title,
  children,
  action,
  heading: Heading = 'h2',
}: {
  icon: typeof FileQuestion;
  title: string;
  children: ReactNode;
  action?: ReactNode;
  heading?: 'h1' | 'h2';
}) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 px-6 py-14 text-center sm:py-16">
        <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500 ring-1 ring-slate-200">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div className="flex max-w-md flex-col gap-2">
          <Heading className="text-xl font-semibold tracking-tight">{title}</Heading>
          <div className="text-sm text-muted-foreground">{children}</div>
        </div>
        {action}
      </CardContent>
    </Card>
  );
}

export function AnalysisDetailRoute() {
  const { id = '' } = useParams();
  const query = useAnalysis(id);
  const analysis = query.data;

  if (query.isLoading) return <AnalysisDetailSkeleton />;

  if (!analysis) {
    const notFound = isNotFoundError(query.error) || !query.error;
    return (
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
        <AnalysisBackLink />
        {notFound ? (
          <CenteredMessage
            icon={FileQuestion}
            title="Analysis Not Found"
            heading="h1"
            action={
              <Link to="/dashboard" className={buttonVariants({ variant: 'outline' })}>
                <ArrowLeft aria-hidden="true" />
                Back to Dashboard
              </Link>
            }
          >
            The requested analysis could not be found or you don't have access to it.
          </CenteredMessage>
        ) : (
          <CenteredMessage
            icon={CircleHelp}
            title="Could not load this analysis"
            heading="h1"
            action={
              <Button variant="outline" onClick={() => void query.refetch()} loading={query.isFetching}>
                <RefreshCw aria-hidden="true" />
                Try again
              </Button>
            }
          >
            {query.error?.message}
          </CenteredMessage>
        )}
      </div>
    );
  }

  const duration = durationBetween(analysis.startedAt, analysis.completedAt);
  return (
    <>
      <AnalysisBackLink analysis={analysis} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight break-words text-foreground sm:text-3xl">
            Analysis of {hostOf(analysis.url)}
          </h1>
          <p className="truncate font-mono text-sm text-muted-foreground" title={analysis.url}>
            {analysis.url}
          </p>
        </div>
      </div>

      <AnalysisTiles analysis={analysis} />

      <dl
        className="flex flex-col gap-x-8 gap-y-2 rounded-xl border border-border bg-card px-4 py-3 text-sm shadow-sm sm:flex-row sm:flex-wrap sm:items-center sm:px-5"
        data-testid="status-line"
      >
        <div className="flex items-center gap-2">
          <dt className="text-muted-foreground">Status</dt>
          <dd>
            <AnalysisStatusBadge status={analysis.status} />
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="text-muted-foreground">Started</dt>
          <dd className="font-medium text-foreground">
            {formatDateTime(analysis.startedAt, analysis.status === 'pending' ? 'Waiting in queue' : '—')}
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="text-muted-foreground">{analysis.status === 'failed' ? 'Ended' : 'Completed'}</dt>
          <dd className="font-medium text-foreground">
            {formatDateTime(analysis.completedAt, isPolledStatus(analysis.status) ? 'Not yet' : '—')}
          </dd>
        </div>
        {duration ? (
          <div className="flex items-center gap-2">
            <dt className="text-muted-foreground">Duration</dt>
            <dd className="font-medium tabular-nums text-foreground">{duration}</dd>
          </div>
        ) : null}
      </dl>

      {query.error ? (
        <Alert tone="warning" role="alert" title="Live updates stopped">
          <div className="flex flex-wrap items-center gap-3">
            <span>The last refresh failed ({query.error.message}).</span>
            <Button
              variant="outline"
              size="sm"
              onClick={() => void query.refetch()}
              loading={query.isFetching}
            >
              <RefreshCw aria-hidden="true" />
              Retry
            </Button>
          </div>
        </Alert>
      ) : null}

      <AnalysisBody analysis={analysis} />
    </>
  );
}

function AnalysisBody({ analysis }: { analysis: Analysis }) {
  if (isPolledStatus(analysis.status)) {
    return <AnalysisProgressCard analysis={analysis} title="Crawling Progress" />;
  }
  if (analysis.status === 'completed' && analysis.cspRules) {
    return (
      <AnalysisResults
        key={analysis.id}
        analysis={analysis}
        asideBottom={analysis.errors.length > 0 ? <AnalysisErrorsCard errors={analysis.errors} /> : null}
      />
    );
  }
  if (analysis.status === 'failed') {
    return (
      <AnalysisFailedCard
        description="The analysis encountered an error and could not be completed."
        errors={analysis.errors}
        action={
          <Link
            to={analysis.domainId ? `/domains/${analysis.domainId}` : '/csp-generator'}
            className={buttonVariants({ variant: 'outline' })}
          >
            Start a new analysis
          </Link>
        }
      />
    );
  }
  if (analysis.status === 'completed') {
    return (
      <CenteredMessage icon={CircleHelp} title="No policy was generated">
        The analysis completed without producing Content Security Policy rules, so there is nothing to show
        yet. Run the analysis again; if this keeps happening, check that the site's pages load.
      </CenteredMessage>
    );
  }
  return (
    <CenteredMessage icon={CircleHelp} title="Status unavailable">
      This analysis reports the status “{analysis.status}”, which this screen cannot show. Its results are
      kept; reload the page later to see them.
    </CenteredMessage>
  );
}

function AnalysisDetailSkeleton() {
  return (
    <LoadingBlock className="flex flex-col gap-6" label="Loading the analysis...">
      <Skeleton className="h-5 w-36" />
      <Skeleton className="h-9 w-72 max-w-full" />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {['progress', 'resources', 'domains', 'issues'].map((k) => (
          <Skeleton key={k} className="h-28 rounded-xl" />
        ))}
      </div>
      <Skeleton className="h-12 w-full rounded-xl" />
      <Skeleton className="h-80 w-full rounded-xl" />
    </LoadingBlock>
  );
}
