// Violation reports of a domain (spec section 7): the list over a window with exact counts, deleting one
// or all, and suggestions judged against the latest crawl. The domain's owner (and admins) see and delete
// them, the members of the owner's team see them; for anyone else the domain does not exist (404).
import { groupDirective, groupSource, reportGroup } from '@csp/shared/reports/group';
import { type ReportGroupEvidence, suggestFromReports } from '@csp/shared/reports/suggestions';
import type { DropCounts, ReportList, ReportSuggestionList } from '@csp/shared/schemas/report';
import { reportListQuerySchema, reportWindowSchema } from '@csp/shared/schemas/report';
import { Hono } from 'hono';
import * as z from 'zod';
import { AppError, notFound } from '../../errors';
import { domainReportEndpoint } from '../../http/public-origin';
import { listDomainAnalyses } from '../../store/analyses';
import { getKnowledge } from '../../store/knowledge';
import {
  clearReportCounts,
  counterShard,
  hourOf,
  hourStartMs,
  uncountReport,
  windowCounts,
  windowStats,
} from '../../store/report-counts';
import {
  clearDomainReports,
  deleteReportItem,
  getReport,
  InvalidCursorError,
  listDomainReports,
  recentDomainReports,
} from '../../store/reports';
import { domainFor } from '../access';
import { parseWith } from '../body';
import type { ApiEnv } from '../deps';
import { requireUser } from '../middleware/session';

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

export const reportRoutes = new Hono<ApiEnv>()
  .get('/domains/:id/uri-reports', requireUser, async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read', { admins: true });
    const q = parseWith(reportListQuerySchema, c.req.query());
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
      for (const [k, v] of Object.entries(s.dropped) as [keyof DropCounts, number][])
        dropped[k] = (dropped[k] ?? 0) + v;
    }
    const body: ReportList = {
      reports: page.reports,
      total: stats.reduce((n, s) => n + s.received, 0),
      stored: stats.reduce((n, s) => n + s.stored, 0),
      counts,
      hourly: hours.map((hour) => ({ hour: `${hour}:00:00.000Z`, count: byHour.get(hour)?.received ?? 0 })),
      dropped,
      nextCursor: page.nextCursor,
      days: q.days,
      endpoint: domainReportEndpoint(c.req.url, c.var.deps.config, domain.uuid),
    };
    return c.json(body);
  })

  .delete('/domains/:id/uri-reports', requireUser, async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'change', { admins: true });
    const deleted = await clearDomainReports(db, domain.id);
    await clearReportCounts(db, domain.id);
    return c.json({ success: true, deleted });
  })

  .delete('/uri-reports/:id', requireUser, async (c) => {
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
  })

  .get('/domains/:id/report-suggestions', requireUser, async (c) => {
    const { db } = c.var.deps;
    const domain = await domainFor(c, c.req.param('id'), 'read', { admins: true });
    const { days } = parseWith(z.object({ days: reportWindowSchema }), c.req.query());
    const hours = windowHours(days);
    const since = hourStartMs(hours[0]!);
    const latest = (await listDomainAnalyses(db, domain.id))
      .filter((a) => a.status === 'completed' && a.cspRules)
      .sort((a, b) => (b.completedAt ?? '').localeCompare(a.completedAt ?? ''))[0];
    const [counts, reports] = await Promise.all([
      windowCounts(db, domain.id, hours[0]!, hours.at(-1)!),
      recentDomainReports(db, domain.id, since, SUGGESTION_EVIDENCE),
    ]);
    const evidence = new Map<string, ReportGroupEvidence>(
      counts.map((g) => [`${g.directive}\n${g.source}`, { ...g, reports: [] }]),
    );
    for (const r of reports) {
      evidence
        .get(`${groupDirective(r.violatedDirective)}\n${groupSource(r.blockedUri)}`)
        ?.reports.push({ documentUri: r.documentUri, scriptSample: r.scriptSample });
    }
    const body: ReportSuggestionList = {
      suggestions: suggestFromReports([...evidence.values()], {
        rules: latest?.cspRules ?? {},
        siteOrigin: latest ? new URL(latest.url).origin : new URL(domain.url).origin,
        knowledge: latest ? await getKnowledge(db, latest.id) : null,
      }),
      analysisId: latest?.id ?? null,
      days,
    };
    return c.json(body);
  });
