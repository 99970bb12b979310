// A domain's schedule: GET for whoever sees the domain (owner, team members), PUT for its owner only.
// Someone else's domain is a 404, a member's PUT a 403 (api/access.ts); a bad body a 400 that saves nothing.
import { type ScheduleView, scheduleInputSchema } from '@csp/shared/schemas/schedule';
import { nextRunAt, type Schedule } from '@csp/shared/watch/schedule';
import { Hono } from 'hono';
import { domainCrawlRequest } from '../../analysis-start/start-domain-analysis';
import { domainReportEndpoint } from '../../http/public-origin';
import type { Db } from '../../store/db';
import { getSchedule, listScheduleRuns, putSchedule, type ScheduleRecord } from '../../store/schedules';
import { domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { requireUser } from '../middleware/session';
import { jsonBody } from '../validate';

/** What a domain without a saved schedule shows: off, with a form's starting values. */
const NO_SCHEDULE: Schedule = { frequency: 'off', time: '06:00', weekday: 1, timeZone: 'UTC' };

async function viewOf(db: Db, domainId: string, record: ScheduleRecord | null): Promise<ScheduleView> {
  return {
    schedule: record?.schedule ?? NO_SCHEDULE,
    crawlRequest: record?.crawlRequest ?? null,
    nextRunAt: record?.nextRunAt != null ? new Date(record.nextRunAt).toISOString() : null,
    updatedAt: record?.updatedAt ?? null,
    history: await listScheduleRuns(db, domainId),
  };
}

export const domainScheduleRoutes = new Hono<ApiEnv>()
  .get('/:id/schedule', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const { db } = c.var.deps;
    return c.json(await viewOf(db, domain.id, await getSchedule(db, domain.id)));
  })

  .put('/:id/schedule', requireUser, jsonBody(scheduleInputSchema), async (c) => {
    const { deps } = c.var;
    const domain = await domainFor(c, c.req.param('id'), 'change');
    const { crawlRequest, ...schedule } = c.req.valid('json');
    // Checked now, as a start would check it, so a saved schedule never fails on its settings later.
    const request = domainCrawlRequest(domain, crawlRequest);
    const record = await putSchedule(deps.db, {
      domainId: domain.id,
      userId: domain.userId,
      schedule,
      crawlRequest: request,
      reportUri: domainReportEndpoint(c.req.url, deps.config, domain.uuid),
      nextRunAt: nextRunAt(schedule, Date.now()),
    });
    return c.json(await viewOf(deps.db, domain.id, record));
  });
