// /domains/:id (spec "Domain detail"): the domain, its running analysis, quick and advanced starts, quick
// stats, the latest analysis and the history, the CSP rules generator, the script inventory, what changed
// between runs, the security reports panel, and Monitoring: the schedule and the alerts.
// A team member sees the owner's domain read-only: no start, activate, delete, save or report deletion.
import { READ_ONLY_MESSAGE } from '@csp/shared/schemas/domain-messages';
import { useQueryClient } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { DeferredMount } from '@/components/layouts/deferred-mount';
import { Alert } from '@/components/ui/alert';
import { BackLink } from '@/components/ui/back-link';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { useDomainAnalyses } from '@/features/analyses/api/get-domain-analyses';
import { ActiveAnalysisBox } from '@/features/analyses/components/active-analysis-box';
import { AnalysisHistoryCard } from '@/features/analyses/components/analysis-history-card';
import { LatestAnalysisCard } from '@/features/analyses/components/latest-analysis-card';
import { QuickStatsCard } from '@/features/analyses/components/quick-stats-card';
import { INACTIVE_REASON_ID, RunAnalysisCard } from '@/features/analyses/components/run-analysis-card';
import { SecurityHistoryCard } from '@/features/analyses/components/security-history-card';
import { StartAnalysisButton } from '@/features/analyses/components/start-analysis-button';
import { isInProgressStatus } from '@/features/analyses/utils/progress';
import { securityHistory } from '@/features/analyses/utils/security-score';
import { useDomain } from '@/features/domains/api/get-domain';
import { DeleteDomainButton } from '@/features/domains/components/delete-domain-button';
import { DomainActiveButton } from '@/features/domains/components/domain-active-button';
import { DomainOverviewCard } from '@/features/domains/components/domain-overview-card';
import { DomainStatusBadge } from '@/features/domains/components/domains-card';
import { DISCARDS_UNSAVED } from '@/hooks/use-unsaved-changes-guard';
import { ApiError } from '@/lib/api-client';
import { domainsQueryKey } from '@/lib/query-keys';
// Its panels load their code once the summary is on screen (see domain-panels.tsx).
import DomainPanels from './domain-panels';

const panelsFallback = <Skeleton className="h-96 w-full rounded-xl" />;
const historyFallback = <Skeleton className="h-64 w-full rounded-xl" />;

export function DomainDetailRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const domain = useDomain(id);
  const analyses = useDomainAnalyses(id, { enabled: Boolean(domain.data) });
  const queryClient = useQueryClient();
  // While the domain is being deleted (and after), its panels are gone: what they would read next (a panel
  // mounting late, a 30 s refresh) would only find it missing.
  const [deleting, setDeleting] = useState(false);
  // Starting a scan counts it on the domain (total scans, last scanned), here and in the dashboard list; a
  // start refused because the domain is inactive means it was deactivated elsewhere: reload it either way.
  const reloadDomain = () => void queryClient.invalidateQueries({ queryKey: domainsQueryKey });

  if (domain.isLoading) return <DomainDetailSkeleton />;

  if (domain.error || !domain.data) {
    const notFound = domain.error instanceof ApiError && domain.error.status === 404;
    return (
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
        <BackLink />
        <Card>
          <CardContent className="flex flex-col items-center gap-4 px-6 py-14 text-center sm:py-16">
            <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500 ring-1 ring-slate-200">
              <SearchX className="size-6" aria-hidden="true" />
            </span>
            <div className="flex flex-col gap-2">
              <h1 className="text-2xl font-semibold tracking-tight">
                {notFound ? 'Domain Not Found' : 'Could not load this domain'}
              </h1>
              <p className="text-sm text-muted-foreground">
                {notFound
                  ? "The requested domain could not be found or you don't have access to it."
                  : `Something went wrong while loading the domain (${domain.error?.message ?? 'no answer'}).`}
              </p>
            </div>
            <Link to="/dashboard" className={buttonVariants({ variant: 'outline' })}>
              Back to Dashboard
            </Link>
          </CardContent>
        </Card>
      </div>
    );
  }

  const d = domain.data;
  const list = analyses.data ?? [];
  // What is below the summary mounts with the analyses (or the failure to read them), not before.
  const analysesIn = !analyses.isLoading;
  const active = list.find((a) => isInProgressStatus(a.status));
  const readOnly = d.access === 'team';

  return (
    <>
      <BackLink />
      <DomainOverviewCard
        domain={d}
        actions={
          readOnly ? null : (
            <>
              <DomainActiveButton domain={d} />
              <DeleteDomainButton
                domain={d}
                onDeleting={setDeleting}
                onDeleted={() => navigate('/dashboard', { replace: true, state: DISCARDS_UNSAVED })}
              />
            </>
          )
        }
      />
      {readOnly ? (
        <div data-testid="read-only-domain">
          <Alert tone="info">{READ_ONLY_MESSAGE}.</Alert>
        </div>
      ) : null}
      {active ? <ActiveAnalysisBox analysis={active} /> : null}

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
          {readOnly ? null : (
            <RunAnalysisCard
              domainId={d.id}
              domainUrl={d.url}
              inactive={!d.isActive}
              onStarted={reloadDomain}
              onRefused={reloadDomain}
            />
          )}
          {/* The history and the cards beside render a frame after the start card and the overview (see
              DeferredMount): rendered with them, the summary was one long task on a phone. */}
          <DeferredMount fallback={historyFallback} until={analysesIn}>
            <AnalysisHistoryCard
              analyses={list}
              loading={analyses.isLoading}
              error={analyses.error}
              emptyAction={
                readOnly ? null : (
                  <StartAnalysisButton
                    domainId={d.id}
                    onStarted={reloadDomain}
                    onRefused={reloadDomain}
                    disabled={!d.isActive}
                    aria-describedby={d.isActive ? undefined : INACTIVE_REASON_ID}
                    variant="outline"
                    size="sm"
                  >
                    Start Your First Analysis
                  </StartAnalysisButton>
                )
              }
            />
          </DeferredMount>
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          {analyses.error ? (
            <Alert tone="error" role="alert">
              Could not load the analyses of this domain.
            </Alert>
          ) : null}
          <DeferredMount fallback={historyFallback} until={analysesIn}>
            <QuickStatsCard analyses={list} status={<DomainStatusBadge isActive={d.isActive} />} />
            <LatestAnalysisCard analysis={list[0]} />
            <SecurityHistoryCard points={securityHistory(list)} />
          </DeferredMount>
        </div>
      </div>
      {deleting ? null : (
        <DeferredMount fallback={panelsFallback} until={analysesIn}>
          <DomainPanels domain={d} analyses={list} readOnly={readOnly} />
        </DeferredMount>
      )}
    </>
  );
}

function DomainDetailSkeleton() {
  return (
    <LoadingBlock className="flex flex-col gap-6" label="Loading the domain...">
      <Skeleton className="h-5 w-36" />
      <Skeleton className="h-40 w-full rounded-xl" />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="flex flex-col gap-6 lg:col-span-2">
          <Skeleton className="h-44 w-full rounded-xl" />
          <Skeleton className="h-64 w-full rounded-xl" />
        </div>
        <div className="flex flex-col gap-6">
          <Skeleton className="h-44 w-full rounded-xl" />
          <Skeleton className="h-44 w-full rounded-xl" />
        </div>
      </div>
    </LoadingBlock>
  );
}
