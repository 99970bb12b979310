// Reports stopped and report spikes (shared/src/watch/report-alerts.ts judges them from hourly counts),
// checked once an hour for each domain whose reports arrived lately: the report consumer marks a domain
// when its reports arrive (noteReportsArrived, once per domain and hour), the dispatcher's tick calls
// checkReportFlows, and a domain is no longer watched once its reports have been silent long enough for
// the "stopped" alert to have been raised.

import { hourOf } from '@csp/shared/reports/group';
import {
  BASELINE_HOURS,
  type ReportAlert,
  reportAlerts,
  STOPPED_AFTER_HOURS,
} from '@csp/shared/watch/report-alerts';
import { claimReportCheck, dropReportingMarker, reportingMarkers } from '../store/alerts';
import type { Db } from '../store/db';
import { getDomain } from '../store/domains';
import { windowStats } from '../store/report-count-windows';
import { hourStartMs } from '../store/report-counts';
import { type AlertRouting, alertRoutingOf, raiseAndQueue } from './deliver';

const HOUR = 3_600_000;
/** A domain silent this long is no longer checked (its "stopped" alert was raised a day or more before). */
const WATCH_SILENCE_HOURS = STOPPED_AFTER_HOURS + 48;

/** The hour key report counts use (2026-11-26T04), for a time in ms. */
export const hourKey = (ms: number) => hourOf(new Date(ms).toISOString());

function summaryOf(alert: ReportAlert, now: number): string {
  if (alert.kind === 'reports-stopped') {
    const hours = Math.floor((now - alert.lastReportAt) / HOUR);
    return `No violation reports for ${hours} h, after ${alert.before} in the week before: a removed header, a broken endpoint or a site that is down look like this.`;
  }
  const factor =
    alert.mean > 0 ? `${Math.round(alert.count / alert.mean)}× the hourly mean` : 'after a silent week';
  return `${alert.count} violation reports in the hour from ${new Date(alert.hour).toISOString().slice(11, 16)} UTC, ${factor} of the week before.`;
}

/** Checks every watched domain not yet checked this hour; the number of alerts raised. */
export async function checkReportFlows(db: Db, now = Date.now()): Promise<number> {
  const current = Math.floor(now / HOUR) * HOUR;
  let raised = 0;
  for (const marker of await reportingMarkers(db)) {
    if (!(await claimReportCheck(db, marker.domainId, hourKey(current)))) continue;
    const domain = await getDomain(db, marker.domainId);
    if (!domain) {
      await dropReportingMarker(db, marker.domainId, marker.lastReportHour);
      continue;
    }
    // Enough history for the week before the last report, however long the silence since is watched.
    const from = current - (BASELINE_HOURS + WATCH_SILENCE_HOURS + 1) * HOUR;
    const stats = await windowStats(db, domain.id, hourKey(from), hourKey(current));
    const hours = stats.map((s) => ({ hour: hourStartMs(s.hour), count: s.received }));
    // The alert settings are read once per domain, and only when it has something to raise.
    let routing: AlertRouting | undefined;
    for (const alert of reportAlerts(hours, now)) {
      routing ??= await alertRoutingOf(db, domain);
      await raiseAndQueue(
        db,
        {
          domainId: domain.id,
          domainName: domain.name,
          kind: alert.kind,
          cause: alert.cause,
          summary: summaryOf(alert, now),
          path: `/domains/${domain.id}`,
        },
        now,
        routing,
      );
      raised += 1;
    }
    if (hourStartMs(marker.lastReportHour) < current - WATCH_SILENCE_HOURS * HOUR) {
      await dropReportingMarker(db, domain.id, marker.lastReportHour);
    }
  }
  return raised;
}
