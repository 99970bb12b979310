// The domain screen's panels below its summary: the CSP rules generator, the script inventory, what changed
// between runs, the security reports, and Monitoring (the schedule and the alerts). They mount once the
// summary is on screen (DeferredMount, in domain-detail.tsx), and each is a module of its own, loaded then.
// They are most of the screen's code (the policy audit, the schemas that check each answer): as one module,
// their evaluation on a phone was a single task of 100+ ms, during which a tap went unanswered; panel by
// panel, the browser answers between them. On a slow network the summary, what a user looks at first,
// never waits for them.
import type { Analysis } from '@csp/shared/schemas/analysis';
import type { Domain } from '@csp/shared/schemas/domain';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import type { LoadSuggestions } from '@/features/configurations/components/report-suggestions-editor';

/** A named export of a module, loaded when first rendered. */
function lazyPanel<P>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

const RulesGeneratorPanel = lazyPanel(() =>
  import('@/features/configurations/components/rules-generator-panel').then((m) => m.RulesGeneratorPanel),
);
const ScriptsPanel = lazyPanel(() =>
  import('@/features/scripts/components/scripts-panel').then((m) => m.ScriptsPanel),
);
const ChangesPanel = lazyPanel(() =>
  import('@/features/changes/components/changes-panel').then((m) => m.ChangesPanel),
);
const ReportsPanel = lazyPanel(() =>
  import('@/features/reports/components/reports-panel').then((m) => m.ReportsPanel),
);
const ScheduleCard = lazyPanel(() =>
  import('@/features/domains/components/schedule-card').then((m) => m.ScheduleCard),
);
const AlertsPanel = lazyPanel(() =>
  import('@/features/alerts/components/alerts-panel').then((m) => m.AlertsPanel),
);

/** The rules generator's suggestions come from the reports' API, loaded with the first read. */
const loadSuggestions: LoadSuggestions = (domainId, days) =>
  import('@/features/reports/api/get-report-suggestions').then((m) => m.getReportSuggestions(domainId, days));

/** A panel's place while its module loads. */
function PanelSlot({ children, height = 'h-64' }: { children: ReactNode; height?: string }) {
  return <Suspense fallback={<Skeleton className={`${height} w-full rounded-xl`} />}>{children}</Suspense>;
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
      <PanelSlot height="h-96">
        <RulesGeneratorPanel
          key={d.id}
          domainId={d.id}
          analyses={analyses}
          readOnly={readOnly}
          loadSuggestions={loadSuggestions}
        />
      </PanelSlot>
      <PanelSlot>
        <ScriptsPanel domainId={d.id} readOnly={readOnly} />
      </PanelSlot>
      <section aria-labelledby="domain-changes-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="domain-changes-title" className="text-lg font-semibold tracking-tight">
          Changes
        </h2>
        <PanelSlot>
          <ChangesPanel domainId={d.id} />
        </PanelSlot>
      </section>
      <PanelSlot>
        <ReportsPanel domainId={d.id} readOnly={readOnly} />
      </PanelSlot>
      {/* Monitoring: when the domain is analysed again on its own, and what alerts whom. */}
      <section aria-labelledby="domain-monitoring-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="domain-monitoring-title" className="text-lg font-semibold tracking-tight">
          Monitoring
        </h2>
        <PanelSlot>
          <ScheduleCard domainId={d.id} domainUrl={d.url} readOnly={readOnly} inactive={!d.isActive} />
        </PanelSlot>
        <section aria-labelledby="domain-alerts-title" className="flex min-w-0 flex-col gap-4">
          <h3 id="domain-alerts-title" className="text-base font-semibold tracking-tight">
            Alerts
          </h3>
          <PanelSlot>
            <AlertsPanel domainId={d.id} readOnly={readOnly} />
          </PanelSlot>
        </section>
      </section>
    </>
  );
}
