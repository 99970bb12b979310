// Domain screen: the progress box shown while an analysis of the domain is pending or under way.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ArrowRight, LoaderCircle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { AnalysisStatusBadge } from '@/components/analysis-status-badge';
import { buttonVariants } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { formatCount } from '@/lib/format';
import { useAnalysisProgress } from '../hooks/use-analysis-progress';

export function ActiveAnalysisBox({ analysis }: { analysis: Analysis }) {
  const view = useAnalysisProgress(analysis);
  const { percent } = view;
  const stage = [view.stageLabel, view.pagesText].filter(Boolean).join(', ');
  return (
    <section
      aria-label="Analysis in progress"
      data-testid="active-analysis"
      className="flex flex-col gap-4 rounded-xl border border-primary/20 bg-primary-soft/60 p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-card text-primary shadow-xs ring-1 ring-primary/15">
            <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
          </span>
          <div className="flex min-w-0 flex-col gap-0.5">
            <span className="flex flex-wrap items-center gap-2 text-sm font-semibold text-foreground">
              Analysis in progress
              <AnalysisStatusBadge status={analysis.status} />
            </span>
            <span className="text-sm text-muted-foreground" role="status" data-testid="progress-status">
              {view.statusText}
              {stage ? (
                <>
                  {' · '}
                  <span className="font-medium text-foreground" data-testid="progress-stage">
                    {stage}
                  </span>
                </>
              ) : null}
            </span>
          </div>
        </div>
        <Link
          to={`/analysis/${analysis.id}`}
          className={buttonVariants({ variant: 'outline', size: 'sm', className: 'bg-card' })}
        >
          View live progress
          <ArrowRight aria-hidden="true" />
        </Link>
      </div>
      <div className="flex items-center gap-3">
        <Progress
          value={view.indeterminate ? undefined : percent}
          className="h-2 bg-white"
          label={`Analysis progress, ${percent}%`}
        />
        <span className="w-11 shrink-0 text-right text-sm font-semibold tabular-nums text-foreground">
          {percent}%
        </span>
      </div>
      <dl className="flex flex-col gap-1 text-sm sm:flex-row sm:gap-6">
        <div className="flex min-w-0 gap-2">
          <dt className="shrink-0 text-muted-foreground">Current page</dt>
          <dd
            className="min-w-0 truncate font-mono text-foreground"
            title={analysis.currentPage ?? undefined}
          >
            {analysis.currentPage || '—'}
          </dd>
        </div>
        <div className="flex shrink-0 gap-2">
          <dt className="text-muted-foreground">Pages found</dt>
          <dd className="font-medium tabular-nums text-foreground">{formatCount(analysis.totalPages)}</dd>
        </div>
      </dl>
    </section>
  );
}
