// Violation reports of a domain (spec section 7): the list over a window with exact counts (the
// REPORT_LIMITS.groupsShown most reported groups, the rest summed up), deleting one, clearing all in the
// background, and suggestions judged against the latest crawl. The domain's owner (and admins) see and delete
// them, the members of the owner's team see them; for anyone else the domain does not exist (404).
import { groupDirective, groupSource, hourOf, reportGroup } from '@csp/shared/reports/group';
import { DROP_REASONS } from '@csp/shared/reports/limits';
import { type ReportGroupEvidence, suggestFromReports } from '@csp/shared/reports/suggestions';
import { topGroups } from '@csp/shared/reports/top-groups';
import type {
  DropCounts,
  ReportClearJob,
  ReportList,
  ReportSuggestionList,
} from '@csp/shared/schemas/report';
import { reportListQuerySchema, reportWindowSchema } from '@csp/shared/schemas/report';
import { byCodeUnits } from '@csp/shared/text/order';
import { Hono } from 'hono';
import * as z from 'zod';
import { AppError, notFound } from '../../errors';
import { domainReportEndpoint } from '../../http/public-origin';
import { listDomainAnalyses } from '../../store/analyses';
import { getKnowledge } from '../../store/knowledge';
import { pollReportClear, requestReportClear } from '../../store/report-clear';
import { windowCounts, windowStats } from '../../store/report-count-windows';
import { counterShard, hourStartMs, uncountReport } from '../../store/report-counts';
import {
  deleteReportItem,
  getReport,
  InvalidCursorError,
  listDomainReports,
  recentDomainReports,
} from '../../store/reports';
import { domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { requireUser } from '../middleware/session';
import { query } from '../validate';

const HOUR = 3600_000;
/** Reports read to find the pages and code samples of each group (the counts stay exact regardless). */
const SUGGESTION_EVIDENCE = 1000;

/** The window's hours, oldest first: from the hour `days` ago to the current one. */
function windowHours(days: number, now = Date.now()): string[] {
  const end = Math.floor(now / HOUR) * HOUR;
  const hours: string[] = [];
  for (let t = end - (days * 24 - 1) * HOUR; t <= end; t += HOUR)
    hours.push(new Date(t).toISOString().slice(0, 13));
  return hours;
}

/** /api/domains/:id/…: a domain's reports and suggestions. The session check is per route (see analyses). */
export const domainReportRoutes = new Hono<ApiEnv>()
  .get('/:id/uri-reports', requireUser, query(reportListQuerySchema), async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read', { admins: true });
    const q = c.req.valid('query');
    const hours = windowHours(q.days);
    const from = hours[0]!;
    const to = hours.at(-1)!;
    let page: Awaited<ReturnType<typeof listDomainReports>>;
    try {
      page = await listDomainReports(db, domain.id, {
        sinceMs: hourStartMs(from),
        limit: q.limit,
        cursor: q.cursor,
      });
    } catch (err) {
      if (err instanceof InvalidCursorError) throw new AppError(400, err.message);
      throw err;
    }
    const [counts, stats] = await Promise.all([
      windowCounts(db, domain.id, from, to),
      windowStats(db, domain.id, from, to),
    ]);
    const byHour = new Map(stats.map((s) => [s.hour, s]));
    const dropped: DropCounts = {};
    for (const s of stats) {
      for (const reason of DROP_REASONS) {
        const n = s.dropped[reason];
        if (n) dropped[reason] = (dropped[reason] ?? 0) + n;
      }
    }
    const top = topGroups(counts.groups, { offset: q.groupOffset, overCap: counts.overCap });
    const body: ReportList = {
      reports: page.reports,
      total: stats.reduce((n, s) => n + s.received, 0),
      stored: stats.reduce((n, s) => n + s.stored, 0),
      counts: top.shown,
      groupTotal: counts.groups.length,
      groupOffset: q.groupOffset,
      other: top.other,
      hourly: hours.map((hour) => ({ hour: `${hour}:00:00.000Z`, count: byHour.get(hour)?.received ?? 0 })),
      dropped,
      nextCursor: page.nextCursor,
      days: q.days,
      endpoint: domainReportEndpoint(c.req.url, c.var.deps.config, domain.uuid),
    };
    return c.json(body);
  })

  // Clearing is accepted at once and runs in the background: a clear message on the report queue, which the
  // report consumer works through (store/report-clear.ts); the panel polls it.
  .delete('/:id/uri-reports', requireUser, async (c) => {
    const domain = await domainFor(c, c.req.param('id'), 'change', { admins: true });
    const job = await requestReportClear({ ...c.var.deps, logger: c.var.log }, domain.id);
    return c.json(job, 202);
  })

  .get('/:id/uri-reports/clear', requireUser, async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read', { admins: true });
    // Reads the progress; advances the job itself only when its chain of clear messages went quiet.
    const job = await pollReportClear(db, domain.id);
    return c.json<{ job: ReportClearJob | null }>({ job });
  })

  .get('/:id/report-suggestions', requireUser, query(z.object({ days: reportWindowSchema })), async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read', { admins: true });
    const { days } = c.req.valid('query');
    const hours = windowHours(days);
    const since = hourStartMs(hours[0]!);
    const latest = (await listDomainAnalyses(db, domain.id))
      .filter((a) => a.status === 'completed' && a.cspRules)
      .sort((a, b) => byCodeUnits(b.completedAt ?? '', a.completedAt ?? ''))[0];
    const [counts, reports] = await Promise.all([
      windowCounts(db, domain.id, hours[0]!, hours.at(-1)!),
      recentDomainReports(db, domain.id, since, SUGGESTION_EVIDENCE),
    ]);
    const top = topGroups(counts.groups, { overCap: counts.overCap });
    const evidence = new Map<string, ReportGroupEvidence>(
      top.shown.map((g) => [`${g.directive}\n${g.source}`, { ...g, reports: [] }]),
    );
    for (const r of reports) {
      evidence
        .get(`${groupDirective(r.violatedDirective)}\n${groupSource(r.blockedUri)}`)
        ?.reports.push({ documentUri: r.documentUri, scriptSample: r.scriptSample, userAgent: r.userAgent });
    }
    const body: ReportSuggestionList = {
      suggestions: suggestFromReports([...evidence.values()], {
        rules: latest?.cspRules ?? {},
        siteOrigin: latest ? new URL(latest.url).origin : new URL(domain.url).origin,
        knowledge: latest ? await getKnowledge(db, latest.id) : null,
      }),
      analysisId: latest?.id ?? null,
      days,
      other: top.other,
    };
    return c.json(body);
  });

/** /api/uri-reports/:id: deleting one report. */
export const reportRoutes = new Hono<ApiEnv>().delete('/:id', requireUser, async (c) => {
  const { db } = c.var.deps;
  const report = await getReport(db, c.req.param('id'));
  if (!report) throw notFound('Report');
  const domain = await domainFor(c, report.domainId, 'change', { what: 'Report', admins: true });
  await deleteReportItem(db, report.id);
  const { directive, source } = reportGroup(report);
  await uncountReport(db, domain.id, {
    shard: counterShard(directive, source),
    hour: hourOf(report.reportedAt),
    directive,
    source,
  });
  return c.json({ success: true });
});
