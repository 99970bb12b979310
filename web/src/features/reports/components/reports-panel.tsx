// The domain screen's Security Reports panel (spec section 2): a window of 1, 3 or 7 days (7 by default),
// refreshed every 30 s; the exact totals, reports per hour and counts per group; the suggestions judged
// against the latest crawl; the reports themselves, a page at a time, each deletable; Clear All, which runs
// in the background while the panel shows its progress.
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { DropCounts, OtherGroups, ReportClearJob, ReportList } from '@csp/shared/schemas/report';
import { Eraser } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Progress } from '@/components/ui/progress';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { ShowMoreButton, useShownFirst } from '@/components/ui/show-more';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { countOf, formatCount } from '@/lib/format';
import { useClearReports, useReportClear } from '../api/clear-reports';
import { useDeleteReport } from '../api/delete-reports';
import { useReportSuggestions } from '../api/get-report-suggestions';
import { type ReportWindow, useReports } from '../api/get-reports';
import { DEFAULT_REPORT_WINDOW } from '../api/panel-data';
import { DROP_REASON_LABELS } from '../utils/classes';
import { ReportRow } from './report-row';
import { ReportSuggestions } from './report-suggestions';
import { ReportsChart } from './reports-chart';
import { ReportsInstall } from './reports-install';

const WINDOW_LABELS: Record<ReportWindow, string> = { 1: 'Last 24h', 3: 'Last 3 days', 7: 'Last week' };
const WINDOWS = REPORT_LIMITS.windowsDays.map((d) => ({ value: String(d), label: WINDOW_LABELS[d] }));

const errorToast = (error: Error) =>
  toast({
    variant: 'destructive',
    title: 'Error',
    description: (error instanceof ApiError && error.serverMessage) || error.message,
  });

/** `readOnly`: a team member reading the owner's domain sees the reports but cannot delete them. */
export function ReportsPanel({ domainId, readOnly = false }: { domainId: string; readOnly?: boolean }) {
  const [days, setDays] = useState<ReportWindow>(DEFAULT_REPORT_WINDOW);
  const [confirmClear, setConfirmClear] = useState(false);
  const reports = useReports(domainId, days);
  const suggestions = useReportSuggestions(domainId, days);
  const deleteOne = useDeleteReport(domainId, {
    onSuccess: () => toast({ title: 'Success', description: 'Security report deleted successfully' }),
    onError: errorToast,
  });
  const clearAll = useClearReports(domainId, {
    onError: (error) => {
      setConfirmClear(false);
      errorToast(error);
    },
  });
  const clearDone = useCallback(
    () => toast({ title: 'Success', description: 'All security reports cleared successfully' }),
    [],
  );
  const clearJob = useReportClear(domainId, clearDone).data ?? null;
  const clearing = clearJob?.state === 'running';

  const first = reports.data?.pages[0];
  const list = reports.data?.pages.flatMap((p) => p.reports) ?? [];
  // One clock for every age label of a render; the 30 s refresh re-renders and moves it on.
  const now = reports.dataUpdatedAt || Date.now();

  return (
    <Card data-testid="reports-panel">
      <CardHeader
        actions={
          readOnly ? null : (
            <Button
              variant="outline"
              size="sm"
              disabled={!first || first.total === 0 || clearAll.isPending || clearing}
              onClick={() => setConfirmClear(true)}
            >
              <Eraser aria-hidden="true" />
              Clear All
            </Button>
          )
        }
      >
        <CardTitle>Security Reports</CardTitle>
        <CardDescription>
          Content Security Policy violations reported by your visitors' browsers.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {clearing && clearJob ? <ClearProgress job={clearJob} /> : null}
        <SegmentedControl
          label="Report window"
          value={String(days)}
          onValueChange={(v) => setDays(Number(v) as ReportWindow)}
          options={WINDOWS}
          className="self-start"
        />
        {reports.isLoading ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading security reports...">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </LoadingBlock>
        ) : reports.error || !first ? (
          <Alert tone="error" role="alert">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <span>Failed to fetch URI reports</span>
              <Button variant="outline" size="sm" onClick={() => void reports.refetch()}>
                Try again
              </Button>
            </div>
          </Alert>
        ) : first.total === 0 && list.length === 0 ? (
          <>
            <DropSummary dropped={first.dropped} />
            <ReportsInstall endpoint={first.endpoint} days={days} />
          </>
        ) : (
          <>
            <Summary data={first} />
            <ReportsChart hourly={first.hourly} />
            <GroupCounts data={first} />
            {suggestions.data ? <ReportSuggestions data={suggestions.data} now={now} /> : null}
            {suggestions.error ? (
              <Alert tone="warning">
                The suggestions could not be loaded; the reports below are complete.
              </Alert>
            ) : null}
            <section className="flex flex-col gap-2" aria-labelledby="report-list-title">
              <h3 id="report-list-title" className="text-sm font-semibold">
                Reports
              </h3>
              {list.length === 0 ? (
                <p className="text-sm text-muted-foreground">
                  No stored report in this window: the counts above are all that is kept.
                </p>
              ) : (
                <ul className="flex flex-col gap-2">
                  {list.map((r) => (
                    <ReportRow
                      key={r.id}
                      report={r}
                      now={now}
                      deleting={deleteOne.isPending && deleteOne.variables === r.id}
                      onDelete={readOnly ? undefined : () => deleteOne.mutate(r.id)}
                    />
                  ))}
                </ul>
              )}
              {reports.hasNextPage ? (
                <Button
                  variant="outline"
                  size="sm"
                  className="self-center"
                  disabled={reports.isFetchingNextPage}
                  onClick={() => void reports.fetchNextPage()}
                >
                  {reports.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              ) : null}
            </section>
          </>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={(next) => {
          if (!clearAll.isPending) setConfirmClear(next);
        }}
        title="Clear all security reports?"
        description="Every violation report of this domain and its counts will be deleted permanently."
        confirmLabel="Clear All"
        destructive
        pending={clearAll.isPending}
        onConfirm={() => clearAll.mutate(undefined, { onSuccess: () => setConfirmClear(false) })}
      />
    </Card>
  );
}

function Summary({ data }: { data: ReportList }) {
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="report-count">
      <p>
        <span className="text-2xl font-semibold tabular-nums">{formatCount(data.total)}</span>{' '}
        <span className="text-muted-foreground">
          {data.total === 1 ? 'report' : 'reports'} received in {countOf(data.groupTotal, 'group')}
        </span>
      </p>
      {data.stored < data.total ? (
        <p className="text-xs text-muted-foreground">
          {formatCount(data.stored)} of them are stored to read below: above an hourly budget reports are
          sampled, while the counts stay exact.
        </p>
      ) : null}
      <DropSummary dropped={data.dropped} />
    </div>
  );
}

function DropSummary({ dropped }: { dropped: DropCounts }) {
  const parts = (Object.entries(dropped) as [keyof DropCounts, number][])
    .filter(([, n]) => n > 0)
    .map(([reason, n]) => `${formatCount(n)} ${DROP_REASON_LABELS[reason]}`);
  if (parts.length === 0) return null;
  return <p className="text-xs text-muted-foreground">Dropped as noise: {parts.join(', ')}.</p>;
}

/** Clearing runs in the background: how far it is (the total is not known up front). */
function ClearProgress({ job }: { job: ReportClearJob }) {
  const what = job.phase === 'reports' ? 'stored reports' : 'counts';
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3"
      role="status"
      data-testid="report-clear-progress"
    >
      <p className="text-sm">
        <span className="font-medium">Clearing all security reports…</span>{' '}
        <span className="text-muted-foreground">
          {countOf(job.deleted, 'item')} deleted so far, now the {what}. You can leave this page: it goes on
          without it.
        </span>
      </p>
      <Progress label="Clearing security reports" />
    </div>
  );
}

/** What the group table leaves out: the groups beyond the most reported, and sources over the hourly cap. */
function OtherGroupsNote({ other }: { other: OtherGroups }) {
  if (other.groups === 0 && other.overCap === 0) return null;
  return (
    <div className="flex flex-col gap-1 text-xs text-muted-foreground" data-testid="report-other-groups">
      {other.groups > 0 ? (
        <p>
          {countOf(other.count, 'other report')} in {countOf(other.groups, 'other group')}, each reported less
          often than those above.
        </p>
      ) : null}
      {other.overCap > 0 ? (
        <p>
          {countOf(other.overCap, 'report')} named sources beyond the first{' '}
          {formatCount(REPORT_LIMITS.newGroupsPerDomainHour)} new ones of their hour: they are counted in the
          total only, which keeps a flood of made-up sources from filling this list.
        </p>
      ) : null}
    </div>
  );
}

function GroupCounts({ data }: { data: ReportList }) {
  const groups = useMemo(() => [...data.counts].sort((a, b) => b.count - a.count), [data.counts]);
  const { shown, more } = useShownFirst(groups, REPORT_LIMITS.groupsListedFirst);
  if (groups.length === 0) return <OtherGroupsNote other={data.other} />;
  return (
    <section className="flex flex-col gap-2" aria-labelledby="report-groups-title">
      <h3 id="report-groups-title" className="text-sm font-semibold">
        By directive and source
      </h3>
      <div className="overflow-x-auto rounded-lg border border-slate-200">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">Directive</th>
              <th className="px-3 py-2 font-medium">Blocked source</th>
              <th className="px-3 py-2 text-right font-medium">Reports</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((g) => (
              <tr key={`${g.directive} ${g.source}`} className="border-t border-slate-100">
                <td className="px-3 py-2 font-mono text-xs">{g.directive}</td>
                <td className="[overflow-wrap:anywhere] px-3 py-2 font-mono text-xs">{g.source}</td>
                <td className="px-3 py-2 text-right tabular-nums">{formatCount(g.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ShowMoreButton {...more} testId="report-groups-more" />
      <OtherGroupsNote other={data.other} />
    </section>
  );
}
