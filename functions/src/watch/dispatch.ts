// The schedule dispatcher: every few minutes (EventBridge Scheduler in AWS, a timer in `npm start`) it
// starts the analyses of the domains whose schedule is due. Each due time is claimed first by moving the
// schedule to its next time with a conditional write, so two dispatchers running at once act on it once;
// then the analysis is started through the same path as a person's start, so the owner's limits, the daily
// page budget, the one-analysis-per-domain guard and the fair queue all apply. What each due time did
// (started, refused with the refusal's reason, skipped while the domain is inactive) goes to its history.
// A dispatcher that was down does not catch up: a schedule runs once, then moves on from now.
import { nextRunAt } from '@csp/shared/watch/schedule';
import { type StartDeps, startDomainAnalysis } from '../analysis-start/start-domain-analysis';
import { AppError } from '../errors';
import { errorFields } from '../logger';
import { getDomain } from '../store/domains';
import {
  claimDueTime,
  deleteSchedule,
  dueSchedules,
  recordScheduleRun,
  type ScheduleRecord,
} from '../store/schedules';

export interface DispatchResult {
  started: number;
  refused: number;
  skipped: number;
  /** Due times another dispatcher claimed first. */
  lost: number;
}

export async function dispatchDueSchedules(deps: StartDeps, now: number): Promise<DispatchResult> {
  const result: DispatchResult = { started: 0, refused: 0, skipped: 0, lost: 0 };
  for (const schedule of await dueSchedules(deps.db, now)) {
    try {
      const outcome = await dispatchOne(deps, schedule, now);
      result[outcome] += 1;
    } catch (err) {
      // One domain's failure (a table error) must not hold up the others; it is tried at its next time.
      deps.logger.error('scheduled start failed', { domainId: schedule.domainId, ...errorFields(err) });
    }
  }
  if (result.started + result.refused + result.skipped > 0)
    deps.logger.info('schedules dispatched', { ...result });
  return result;
}

async function dispatchOne(
  deps: StartDeps,
  schedule: ScheduleRecord,
  now: number,
): Promise<keyof DispatchResult> {
  const { db } = deps;
  const dueAt = schedule.nextRunAt;
  if (dueAt === null) return 'lost';
  if (!(await claimDueTime(db, schedule, nextRunAt(schedule.schedule, now)))) return 'lost';
  const record = (run: {
    outcome: 'started' | 'refused' | 'skipped';
    analysisId?: string;
    reason?: string;
  }) =>
    recordScheduleRun(
      db,
      schedule.domainId,
      {
        dueAt: new Date(dueAt).toISOString(),
        outcome: run.outcome,
        analysisId: run.analysisId ?? null,
        reason: run.reason ?? null,
      },
      now,
    );
  const domain = await getDomain(db, schedule.domainId);
  // A domain deleted under its schedule (its deletion removes the schedule, unless it stopped half way):
  // nothing to start, and the schedule goes too.
  if (!domain) {
    await deleteSchedule(db, schedule.domainId);
    return 'lost';
  }
  if (!domain.isActive) {
    await record({ outcome: 'skipped', reason: 'The domain is inactive: scheduled analyses are paused.' });
    return 'skipped';
  }
  try {
    const analysis = await startDomainAnalysis(deps, {
      domain,
      crawlRequest: { ...schedule.crawlRequest, url: domain.url },
      reportUri: schedule.reportUri,
      trigger: 'schedule',
    });
    await record({ outcome: 'started', analysisId: analysis.id });
    return 'started';
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await record({ outcome: 'refused', reason: err.message });
    return 'refused';
  }
}
