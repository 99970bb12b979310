// One tick of the watch, every few minutes (the dispatcher Lambda in AWS, a timer under `npm start`): start
// the analyses whose schedule is due, check the flow of reports of the domains that receive them (each
// domain once an hour), and send the alert deliveries that are due. Each part runs even when one before it
// failed: a broken schedule must not hold back the alerts.

import { type AlertDeps, deliverDue } from '../alerts/deliver';
import { checkReportFlows } from '../alerts/report-flows';
import type { StartDeps } from '../analysis-start/start-domain-analysis';
import { errorFields } from '../logger';
import { type DispatchResult, dispatchDueSchedules } from './dispatch';

export interface TickResult {
  schedules: DispatchResult | null;
  /** Report alerts raised. */
  reportAlerts: number | null;
  /** Deliveries tried. */
  deliveries: number | null;
}

export async function watchTick(deps: StartDeps & { alerts: AlertDeps }, now: number): Promise<TickResult> {
  const failures: unknown[] = [];
  const run = async <T>(name: string, part: () => Promise<T>): Promise<T | null> => {
    try {
      return await part();
    } catch (err) {
      deps.logger.error(`watch tick: ${name} failed`, errorFields(err));
      failures.push(err);
      return null;
    }
  };
  const result: TickResult = {
    schedules: await run('schedules', () => dispatchDueSchedules(deps, now)),
    reportAlerts: await run('report flows', () => checkReportFlows(deps.db, now)),
    deliveries: await run('alert deliveries', () => deliverDue(deps.alerts, now)),
  };
  // The Lambda's error alarm counts this tick as failed.
  if (failures.length > 0) throw failures[0];
  return result;
}
