// What the report consumer tells the alerts about a domain's counted reports: that they arrived this hour
// (so the hourly check watches the flow: report-flows.ts) and each suspicious inline-code group they showed
// for the first time (an alert each, grouped by the group: its reports again are counted, not sent again).
import { ALERT_KIND_TITLES } from '@csp/shared/alerts/alert';
import type { Domain } from '@csp/shared/schemas/domain';
import type { NewSuspiciousGroup } from '../achievements/suspicious-watch';
import { noteReportsArrived } from '../store/alerts';
import type { Db } from '../store/db';
import { raiseAndQueue } from './deliver';
import { hourKey } from './report-flows';

/** New suspicious groups alerted per batch: a flood of distinct samples is one attack, not 1,000 mails. */
const SUSPICIOUS_ALERTS_PER_BATCH = 5;
const SAMPLE_CHARS = 80;

export async function watchReports(
  db: Db,
  domain: Pick<Domain, 'id' | 'name'>,
  fresh: readonly NewSuspiciousGroup[],
  now = Date.now(),
): Promise<void> {
  await noteReportsArrived(db, domain.id, hourKey(now));
  for (const group of fresh.slice(0, SUSPICIOUS_ALERTS_PER_BATCH)) {
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
    );
  }
}
