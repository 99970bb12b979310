// The domain screen's panels below its summary: the CSP rules generator, the script inventory, what changed
// between runs, the security reports, and Monitoring (the schedule and the alerts). A module of their own,
// loaded once the summary is on screen: they are most of the screen's code (the policy audit among it),
// and on a phone over a slow network the summary — what a user looks at first — waited for all of it.
import type { Analysis } from '@csp/shared/schemas/analysis';
import type { Domain } from '@csp/shared/schemas/domain';
import { AlertsPanel } from '@/features/alerts/components/alerts-panel';
import { ChangesPanel } from '@/features/changes/components/changes-panel';
import { RulesGeneratorPanel } from '@/features/configurations/components/rules-generator-panel';
import { ScheduleCard } from '@/features/domains/components/schedule-card';
import { getReportSuggestions } from '@/features/reports/api/get-report-suggestions';
import { ReportsPanel } from '@/features/reports/components/reports-panel';
import { ScriptsPanel } from '@/features/scripts/components/scripts-panel';

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
      <RulesGeneratorPanel
        key={d.id}
        domainId={d.id}
        analyses={analyses}
        readOnly={readOnly}
        loadSuggestions={getReportSuggestions}
      />
      <ScriptsPanel domainId={d.id} readOnly={readOnly} />
      <section aria-labelledby="domain-changes-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="domain-changes-title" className="text-lg font-semibold tracking-tight">
          Changes
        </h2>
        <ChangesPanel domainId={d.id} />
      </section>
      <ReportsPanel domainId={d.id} readOnly={readOnly} />
      {/* Monitoring: when the domain is analysed again on its own, and what alerts whom. */}
      <section aria-labelledby="domain-monitoring-title" className="flex min-w-0 flex-col gap-4">
        <h2 id="domain-monitoring-title" className="text-lg font-semibold tracking-tight">
          Monitoring
        </h2>
        <ScheduleCard domainId={d.id} domainUrl={d.url} readOnly={readOnly} inactive={!d.isActive} />
        <section aria-labelledby="domain-alerts-title" className="flex min-w-0 flex-col gap-4">
          <h3 id="domain-alerts-title" className="text-base font-semibold tracking-tight">
            Alerts
          </h3>
          <AlertsPanel domainId={d.id} readOnly={readOnly} />
        </section>
      </section>
    </>
  );
}
