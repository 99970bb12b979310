// What the report consumer tells the alerts about a domain's counted reports: that they arrived this hour
// (so the hourly check watches the flow: report-flows.ts) and each suspicious inline-code group they showed
// for the first time (an alert each, grouped by the group: its reports again are counted, not sent again).
import { ALERT_KIND_TITLES } from '@csp/shared/alerts/alert';
import type { Domain } from '@csp/shared/schemas/domain';
import type { NewSuspiciousGroup } from '../achievements/suspicious-watch';
import { noteReportsArrived } from '../store/alerts';
import type { Db } from '../store/db';
import { type AlertRouting, alertRoutingOf, raiseAndQueue } from './deliver';
import { hourKey } from './report-flows';

/** New suspicious groups alerted per batch: a flood of distinct samples is one attack, not 1,000 mails. */
const SUSPICIOUS_ALERTS_PER_BATCH = 5;
const SAMPLE_CHARS = 80;

export async function watchReports(
  db: Db,
  domain: Pick<Domain, 'id' | 'name' | 'userId'>,
  fresh: readonly NewSuspiciousGroup[],
  now = Date.now(),
): Promise<void> {
  await noteReportsArrived(db, domain.id, hourKey(now));
  // Read once per batch, and only when there is something to raise.
  let routing: AlertRouting | undefined;
  for (const group of fresh.slice(0, SUSPICIOUS_ALERTS_PER_BATCH)) {
    routing ??= await alertRoutingOf(db, domain);
    const sample = group.sample ? ` "${group.sample.slice(0, SAMPLE_CHARS)}"` : '';
    await raiseAndQueue(
      db,
      {
        domainId: domain.id,
        domainName: domain.name,
        kind: 'suspicious-inline',
        cause: group.hash,
        summary: `${ALERT_KIND_TITLES['suspicious-inline']}: ${group.directive} ${group.source}${sample}`,
        path: `/domains/${domain.id}`,
      },
      now,
      routing,
    );
  }
}
