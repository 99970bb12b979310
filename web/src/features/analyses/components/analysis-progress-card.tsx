// A crawl under way: the percentage and bar (never moving backwards), the five stages with the one the
// crawler is really in, the page being crawled, the pages found so far, the status line (queued, verifying…),
// and the issues met so far. Analysis detail ('Crawling Progress') and the standalone
// generator ('CSP Analysis in Progress') both show it.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { Radar } from 'lucide-react';
import { AnalysisStatusBadge } from '@/components/analysis-status-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { formatCount } from '@/lib/format';
import { useAnalysisProgress } from '../hooks/use-analysis-progress';
import { AnalysisErrorList } from './analysis-errors';
import { CrawlStages } from './crawl-stages';

export function AnalysisProgressCard({
  analysis,
  title,
  showUrl = false,
}: {
  analysis: Analysis;
  title: string;
  showUrl?: boolean;
}) {
  const view = useAnalysisProgress(analysis);
  const { percent } = view;
  const pending = analysis.status === 'pending';
  return (
    <Card data-testid="analysis-progress" aria-busy="true">
      <CardHeader actions={<AnalysisStatusBadge status={analysis.status} />}>
        <CardTitle className="flex items-center gap-2">
          <span className="relative flex size-2.5" aria-hidden="true">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-primary/60" />
            <span className="relative inline-flex size-2.5 rounded-full bg-primary" />
          </span>
          {title}
        </CardTitle>
        <CardDescription role="status" data-testid="progress-status">
          {view.statusText}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {showUrl ? (
          <div className="flex min-w-0 items-center gap-2 rounded-lg border border-border bg-slate-50/60 px-3 py-2">
            <Radar className="size-4 shrink-0 text-primary" aria-hidden="true" />
            <span className="truncate font-mono text-sm text-foreground" title={analysis.url}>
              {analysis.url}
            </span>
          </div>
        ) : null}

        <div className="flex flex-col gap-2">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="font-medium text-foreground">Overall progress</span>
            <span className="font-semibold tabular-nums text-foreground" data-testid="progress-percent">
              {percent}%
            </span>
          </div>
          <Progress
            value={view.indeterminate ? undefined : percent}
            className="h-2.5"
            label={`Analysis progress, ${percent}%`}
          />
        </div>

        <CrawlStages current={view.stage} detail={view.pagesText} />

        <dl className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto]">
          <div className="flex min-w-0 flex-col gap-1 rounded-lg border border-border p-3">
            <dt className="text-xs font-medium text-muted-foreground">Current page</dt>
            <dd
              className="line-clamp-2 font-mono text-sm [overflow-wrap:anywhere] text-foreground"
              title={analysis.currentPage ?? undefined}
            >
              {analysis.currentPage || noPageText(analysis, view.queued, pending)}
            </dd>
          </div>
          <div className="flex flex-col gap-1 rounded-lg border border-border p-3 sm:min-w-36">
            <dt className="text-xs font-medium text-muted-foreground">Pages found</dt>
            <dd className="text-sm font-semibold tabular-nums text-foreground">
              {formatCount(analysis.totalPages)}
            </dd>
          </div>
        </dl>

        {analysis.errors.length > 0 ? (
          <AnalysisErrorList title="Analysis Issues" errors={analysis.errors} tone="warning" />
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The current page's line when no page is being loaded: what the run does instead. */
function noPageText(analysis: Analysis, queued: boolean, pending: boolean): string {
  if (queued) return 'Waiting for a free slot...';
  if (pending) return 'Waiting for the crawler to start...';
  if (analysis.stage === 'generating') return 'Generating the policy...';
  if (analysis.stage === 'verifying') return 'Loading pages with the policy...';
  return 'Preparing the next page...';
}
