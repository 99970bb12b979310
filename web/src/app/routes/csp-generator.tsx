// /csp-generator (spec "Standalone CSP generator"), named "CSP Analyzer" wherever it shows: analyze any
// website without registering a domain.
// The analysis being shown is in the query string (?analysis=id), so a reload or a shared link shows it
// again; 'Start New Analysis' clears it and returns to the form.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { FileCheck2, Radar, RotateCcw, Waypoints } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { AnalysisResults } from '@/app/analysis-results';
import { PageHeader } from '@/components/layouts/app-layout';
import { Alert } from '@/components/ui/alert';
import { BackLink } from '@/components/ui/back-link';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { isNotFoundError, useAnalysis } from '@/features/analyses/api/get-analysis';
import { AnalysisErrorsCard } from '@/features/analyses/components/analysis-errors';
import { AnalysisFailedCard } from '@/features/analyses/components/analysis-failed-card';
import { AnalysisProgressCard } from '@/features/analyses/components/analysis-progress-card';
import { AnalysisSummaryCard } from '@/features/analyses/components/analysis-summary-card';
import { QuickActionsCard } from '@/features/analyses/components/quick-actions-card';
import { WebsiteAnalyzeForm } from '@/features/analyses/components/website-analyze-form';
import { isPolledStatus } from '@/features/analyses/utils/progress';

/** Spec section 9: the page scrolls to the results 500 ms after they appear. */
export const SCROLL_TO_RESULTS_MS = 500;

export function CspGeneratorRoute() {
  const [params, setParams] = useSearchParams();
  const analysisId = params.get('analysis') ?? '';
  const query = useAnalysis(analysisId, { enabled: Boolean(analysisId) });
  const analysis = query.data;
  const [formKey, setFormKey] = useState(0);
  const resultsRef = useRef<HTMLDivElement>(null);

  // What is on show below the form; each time it changes (a start, then the outcome) the page scrolls to it.
  const phase = !analysis ? null : isPolledStatus(analysis.status) ? 'progress' : 'outcome';
  const shown = analysis && phase ? `${analysis.id}:${phase}` : null;
  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(
      () => resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
      SCROLL_TO_RESULTS_MS,
    );
    return () => clearTimeout(timer);
  }, [shown]);

  function startNew() {
    setParams({}, { replace: false });
    setFormKey((k) => k + 1);
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }

  return (
    <>
      <BackLink />
      <PageHeader
        title="CSP Analyzer"
        description="Analyze any website's Content Security Policy: crawl it with a real browser and get a policy built from what its pages load and run."
      />

      <WebsiteAnalyzeForm key={formKey} onStarted={(id) => setParams({ analysis: id })} />

      {analysisId ? null : <HowItWorks />}

      {analysisId ? (
        <div ref={resultsRef} className="flex scroll-mt-20 flex-col gap-6" data-testid="generator-results">
          {query.isLoading ? (
            <LoadingBlock label="Loading the analysis...">
              <Skeleton className="h-72 w-full rounded-xl" />
            </LoadingBlock>
          ) : analysis ? (
            <GeneratorOutcome analysis={analysis} onStartNew={startNew} />
          ) : (
            <Alert
              tone={isNotFoundError(query.error) ? 'info' : 'error'}
              role="alert"
              title="Analysis unavailable"
            >
              <div className="flex flex-wrap items-center gap-3">
                <span>
                  {isNotFoundError(query.error)
                    ? "The requested analysis could not be found or you don't have access to it."
                    : `The analysis could not be loaded (${query.error?.message ?? 'no answer'}).`}
                </span>
                <Button variant="outline" size="sm" onClick={startNew}>
                  Start New Analysis
                </Button>
              </div>
            </Alert>
          )}
          {analysis && query.error ? (
            <Alert tone="warning" role="alert" title="Live updates stopped">
              The last refresh failed ({query.error.message}). Reload the page to try again.
            </Alert>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

const STEPS = [
  {
    icon: Waypoints,
    title: 'Discover',
    text: 'robots.txt, /sitemap.xml, your uploaded sitemap or URL list, then same-site links, up to the page limit.',
  },
  {
    icon: Radar,
    title: 'Record',
    text: 'Headless Chromium loads every page and records each script, style, frame, font and connection it uses.',
  },
  {
    icon: FileCheck2,
    title: 'Generate and verify',
    text: 'A tight policy with exact origins and hashes, reloaded on a sample of pages to prove it blocks nothing.',
  },
] as const;

function HowItWorks() {
  return (
    <section aria-label="How it works" className="grid gap-4 md:grid-cols-3">
      {STEPS.map(({ icon: Icon, title, text }, index) => (
        <div
          key={title}
          className="flex gap-3 rounded-xl border border-dashed border-slate-300 bg-white/60 p-4"
        >
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary ring-1 ring-primary/10">
            <Icon className="size-4" aria-hidden="true" />
          </span>
          <div className="flex flex-col gap-1">
            <span className="text-sm font-medium text-foreground">
              <span className="text-muted-foreground tabular-nums">{index + 1}.</span> {title}
            </span>
            <p className="text-sm text-muted-foreground">{text}</p>
          </div>
        </div>
      ))}
    </section>
  );
}

function GeneratorOutcome({ analysis, onStartNew }: { analysis: Analysis; onStartNew: () => void }) {
  if (isPolledStatus(analysis.status)) {
    return <AnalysisProgressCard analysis={analysis} title="CSP Analysis in Progress" showUrl />;
  }
  if (analysis.status === 'completed' && analysis.cspRules) {
    return (
      <>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex min-w-0 flex-col gap-1">
            <h2 className="text-xl font-semibold tracking-tight text-foreground">Analysis Results</h2>
            <p className="truncate font-mono text-sm text-muted-foreground" title={analysis.url}>
              {analysis.url}
            </p>
          </div>
          <Button variant="outline" onClick={onStartNew} className="self-start sm:self-auto">
            <RotateCcw aria-hidden="true" />
            Start New Analysis
          </Button>
        </div>
        <AnalysisResults
          key={analysis.id}
          analysis={analysis}
          asideTop={<AnalysisSummaryCard analysis={analysis} />}
          asideBottom={
            <>
              <QuickActionsCard analysis={analysis} />
              <AnalysisErrorsCard errors={analysis.errors} />
            </>
          }
        />
      </>
    );
  }
  if (analysis.status === 'failed') {
    return (
      <AnalysisFailedCard
        description={
          <>
            We encountered an error while analyzing{' '}
            <span className="font-mono [overflow-wrap:anywhere]">{analysis.url}</span>
          </>
        }
        errors={analysis.errors}
        action={
          <Button onClick={onStartNew}>
            <RotateCcw aria-hidden="true" />
            Start New Analysis
          </Button>
        }
      />
    );
  }
  return (
    <Alert
      tone="info"
      title={analysis.status === 'completed' ? 'No policy was generated' : 'Status unavailable'}
    >
      <div className="flex flex-wrap items-center gap-3">
        <span>
          {analysis.status === 'completed'
            ? 'The analysis completed without producing Content Security Policy rules.'
            : `This analysis reports the status “${analysis.status}”, which this screen cannot show.`}
        </span>
        <Button variant="outline" size="sm" onClick={onStartNew}>
          Start New Analysis
        </Button>
      </div>
    </Alert>
  );
}
