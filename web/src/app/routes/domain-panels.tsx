// The domain screen's panels below its summary: the CSP rules generator, the script inventory, what changed
// between runs, the security reports, and Monitoring (the schedule and the alerts). They mount once the
// summary is on screen (DeferredMount, in domain-detail.tsx), and each is a module of its own, loaded then.
// They are most of the screen's code (the policy audit, the schemas that check each answer): as one module,
// their evaluation on a phone was a single task of 100+ ms, during which a tap went unanswered; panel by
// panel, the browser answers between them. On a slow network the summary, what a user looks at first,
// never waits for them.
import type { Analysis } from '@csp/shared/schemas/analysis';
import type { Domain } from '@csp/shared/schemas/domain';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, Suspense, use } from 'react';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import type { LoadSuggestions } from '@/features/configurations/components/report-suggestions-editor';

/** The reads of what a panel shows first (its feature's api/panel-data.ts). */
type Prefetch = (queryClient: QueryClient, domainId: string) => Promise<unknown>;

const nextTask = () => new Promise((next) => setTimeout(next, 0));

/**
 * The schema library every panel's module builds its schemas with, run in a task of its own before any
 * panel's module is asked for: run with the first panel's, it made that task (some 50 ms of script on a fast
 * machine) the screen's longest.
 */
let schemaLibrary: Promise<unknown> | undefined;
const schemaLibraryFirst = () => {
  schemaLibrary ??= import('@/lib/schema-library').then(nextTask, (error: unknown) => {
    schemaLibrary = undefined; // asked for again on the next visit
    throw error;
  });
  return schemaLibrary;
};

/**
 * Calls `load` in a task of its own, after the calls before it: asking for a module adds a preload link for
 * each file it needs that the page has not asked for yet (the build's dynamic-import helper), and the six
 * panels asked at once made a task of some 50 ms on a phone.
 */
let lastCall: Promise<unknown> = Promise.resolve();
function inTurn<T>(load: () => Promise<T>): Promise<T> {
  const turn = lastCall.then(nextTask);
  lastCall = turn;
  return turn.then(load);
}

/**
 * A panel that renders once both its module and its first data are in (its place shows a skeleton until
 * then). Rendered before its data, a panel rendered again when the data came, and React renders an update
 * from a query in one piece: each panel's was a task of 60–120 ms on a phone, in which a tap went unanswered.
 * Its first render is now the retry of its Suspense boundary, which React renders in slices, with the
 * browser free between them.
 *
 * A phone's longest tasks after that were the panels' modules running: their schemas (a few hundred, built
 * as the module runs) with their components. So the module with the panel's reads (and the schemas that
 * check the answers) comes first, in a task of its own; its reads go out in the next one, and the panel's
 * components are asked for then (a round trip later than at once; nothing above the panels waits for them).
 * One wait per domain: a return to the screen shows the cached data at once (refreshed as usual), and a
 * module that failed to load is asked for again on the next visit.
 */
function panelWithData<P extends { domainId: string }>(parts: {
  data: () => Promise<Prefetch>;
  panel: () => Promise<ComponentType<P>>;
}) {
  const ready = new Map<string, Promise<ComponentType<P>>>();
  return function PanelWhenReady(props: P) {
    const queryClient = useQueryClient();
    let loaded = ready.get(props.domainId);
    if (!loaded) {
      loaded = schemaLibraryFirst().then(async () => {
        const prefetch = await inTurn(parts.data);
        await nextTask();
        const [Panel] = await Promise.all([inTurn(parts.panel), prefetch(queryClient, props.domainId)]);
        return Panel;
      });
      loaded.catch(() => ready.delete(props.domainId));
      ready.set(props.domainId, loaded);
    }
    const Panel = use(loaded);
    return <Panel {...props} />;
  };
}

const RulesGeneratorPanel = panelWithData({
  data: () => import('@/features/configurations/api/panel-data').then((m) => m.prefetchRulesGeneratorPanel),
  panel: () =>
    import('@/features/configurations/components/rules-generator-panel').then((m) => m.RulesGeneratorPanel),
});
const ScriptsPanel = panelWithData({
  data: () => import('@/features/scripts/api/panel-data').then((m) => m.prefetchScriptsPanel),
  panel: () => import('@/features/scripts/components/scripts-panel').then((m) => m.ScriptsPanel),
});
const ChangesPanel = panelWithData({
  data: () => import('@/features/changes/api/panel-data').then((m) => m.prefetchChangesPanel),
  panel: () => import('@/features/changes/components/changes-panel').then((m) => m.ChangesPanel),
});
const ReportsPanel = panelWithData({
  data: () => import('@/features/reports/api/panel-data').then((m) => m.prefetchReportsPanel),
  panel: () => import('@/features/reports/components/reports-panel').then((m) => m.ReportsPanel),
});
const ScheduleCard = panelWithData({
  data: () => import('@/features/domains/api/panel-data').then((m) => m.prefetchScheduleCard),
  panel: () => import('@/features/domains/components/schedule-card').then((m) => m.ScheduleCard),
});
const AlertsPanel = panelWithData({
  data: () => import('@/features/alerts/api/panel-data').then((m) => m.prefetchAlertsPanel),
  panel: () => import('@/features/alerts/components/alerts-panel').then((m) => m.AlertsPanel),
});

/** The rules generator's suggestions come from the reports' API, loaded with the first read. */
const loadSuggestions: LoadSuggestions = (domainId, days) =>
  import('@/features/reports/api/get-report-suggestions').then((m) => m.getReportSuggestions(domainId, days));

/** A panel's place while its module and its first data load, kept at about its height, said as `loading`. */
function PanelSlot({
  children,
  loading,
  height = 'h-64',
}: {
  children: ReactNode;
  loading: string;
  height?: string;
}) {
  return (
    <Suspense
      fallback={
        <LoadingBlock data-testid="panel-loading" label={loading}>
          <Skeleton className={`${height} w-full rounded-xl`} />
        </LoadingBlock>
      }
    >
      {children}
    </Suspense>
  );
}

export default function DomainPanels({
  domain: d,
  analyses,
  readOnly,
}: {
  domain: Domain;
  analyses: Analysis[];
  readOnly: boolean;
}) {
  return (
    <>
      <PanelSlot height="h-96" loading="Loading the CSP rules generator...">
        <RulesGeneratorPanel
          key={d.id}
          domainId={d.id}
          analyses={analyses}
          readOnly={readOnly}
          loadSuggestions={loadSuggestions}
        />
      </PanelSlot>
      <PanelSlot loading="Loading the scripts...">
        <ScriptsPanel domainId={d.id} readOnly={readOnly} />
      </PanelSlot>
      <section aria-labelledby="domain-changes-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="domain-changes-title" className="text-lg font-semibold tracking-tight">
          Changes
        </h2>
        <PanelSlot loading="Loading the changes...">
          <ChangesPanel domainId={d.id} />
        </PanelSlot>
      </section>
      <PanelSlot loading="Loading security reports...">
        <ReportsPanel domainId={d.id} readOnly={readOnly} />
      </PanelSlot>
      {/* Monitoring: when the domain is analysed again on its own, and what alerts whom. */}
      <section aria-labelledby="domain-monitoring-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="domain-monitoring-title" className="text-lg font-semibold tracking-tight">
          Monitoring
        </h2>
        <PanelSlot loading="Loading the schedule...">
          <ScheduleCard domainId={d.id} domainUrl={d.url} readOnly={readOnly} inactive={!d.isActive} />
        </PanelSlot>
        <section aria-labelledby="domain-alerts-title" className="flex min-w-0 flex-col gap-4">
          <h3 id="domain-alerts-title" className="text-base font-semibold tracking-tight">
            Alerts
          </h3>
          <PanelSlot loading="Loading the alert settings...">
            <AlertsPanel domainId={d.id} readOnly={readOnly} />
          </PanelSlot>
        </section>
      </section>
    </>
  );
}
