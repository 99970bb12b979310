// GET /api/domains/:id/evidence?format=csv|json&from=YYYY-MM-DD&to=YYYY-MM-DD: the evidence an assessor asks
// for (PCI DSS 6.4.3 and 11.6.1) as a download: the script inventory with its justifications, and the
// authorization history, watched runs with their changes, alerts and deliveries of the period
// (shared/src/watch/evidence.ts says what is in it). The owner and the owner's team read it, a read-scoped
// API token too; anyone else gets a 404.
//
// Bounded: the period is 366 days at most; runs and deliveries are read by key range (their ids begin with
// their time), each list at most EVIDENCE_LIMITS of it (the export says when one was cut); the inventory is
// one item per script (capped by the watch); the history is the domain's history partition filtered to the
// period by DynamoDB (its keys group rows by script, so the read covers the partition, the answer the period).
// An answer over EVIDENCE_LIMITS.responseBytes is refused with a 413 that says why (Lambda answers 6 MB at most).
import { EVIDENCE_LIMITS, evidenceQuerySchema } from '@csp/shared/schemas/evidence';
import { byCodeUnits } from '@csp/shared/text/order';
import { evidenceCsv, evidenceFilename, evidenceJson } from '@csp/shared/watch/evidence';
import { evidencePeriod } from '@csp/shared/watch/evidence-period';
import { Hono } from 'hono';
import { AppError } from '../../errors';
import { listAlerts, listDeliveriesBetween } from '../../store/alerts';
import { listDomainScriptHistory, loadInventory } from '../../store/script-inventory';
import { getUser } from '../../store/users';
import { listWatchRunsBetween } from '../../store/watch-snapshots';
import { domainFor } from '../access';
import type { ApiEnv } from '../deps';
import { requireUser } from '../middleware/session';
import { query } from '../validate';

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

export const domainEvidenceRoutes = new Hono<ApiEnv>().get(
  '/:id/evidence',
  requireUser,
  query(evidenceQuerySchema),
  async (c) => {
    const q = c.req.valid('query');
    const now = Date.now();
    const period = evidencePeriod(q, now);
    if ('error' in period) throw new AppError(400, period.error);
    const domain = await domainFor(c, c.req.param('id'), 'read');
    const { db } = c.var.deps;
    const range = { from: period.from, to: period.to };

    const [inventory, history, runs, groups, deliveries] = await Promise.all([
      loadInventory(db, domain.id),
      listDomainScriptHistory(db, domain.id, range),
      listWatchRunsBetween(db, domain.id, range, EVIDENCE_LIMITS.runs),
      listAlerts(db, domain.id, Number.POSITIVE_INFINITY),
      listDeliveriesBetween(db, domain.id, range, EVIDENCE_LIMITS.deliveries),
    ]);
    // Alert groups that were raised at some time in the period, oldest first.
    const inPeriod = groups
      .filter((a) => a.firstSeen <= period.to && a.lastSeen >= period.from)
      .sort((a, b) => byCodeUnits(a.firstSeen, b.firstSeen));

    // An authorization keeps the reviewer's id; the history rows carry names, and the rest are looked up
    // (a domain has a handful of reviewers: its owner, at most its team).
    const people: Record<string, string> = {};
    for (const h of history) if (h.by && h.byName) people[h.by] = h.byName;
    const unknown = new Set(
      inventory.entries.map((e) => e.authorization?.by).filter((id): id is string => !!id && !(id in people)),
    );
    for (const id of unknown) {
      const user = await getUser(db, id);
      if (user) people[id] = user.username;
    }

    const input = {
      domain: { name: domain.name, url: domain.url },
      period: { from: period.fromDay, to: period.toDay },
      generatedAt: new Date(now).toISOString(),
      inventory: inventory.entries.map(({ rev: _rev, ...e }) => e),
      people,
      history,
      runs: runs.runs.map(({ domainId: _d, ...run }) => run),
      alerts: inPeriod.slice(0, EVIDENCE_LIMITS.alerts),
      deliveries: deliveries.deliveries,
      cut: { runs: runs.more, alerts: inPeriod.length > EVIDENCE_LIMITS.alerts, deliveries: deliveries.more },
    };
    const body = q.format === 'csv' ? evidenceCsv(input) : JSON.stringify(evidenceJson(input), null, 2);
    const bytes = Buffer.byteLength(body);
    if (bytes > EVIDENCE_LIMITS.responseBytes) {
      throw new AppError(
        413,
        `This export is ${(bytes / 1e6).toFixed(1)} MB, more than one download carries ` +
          `(${EVIDENCE_LIMITS.responseBytes / 1e6} MB): choose a shorter period${q.format === 'json' ? ' or CSV' : ''}`,
      );
    }
    return c.body(body, 200, {
      'Content-Type': CONTENT_TYPES[q.format],
      'Content-Disposition': `attachment; filename="${evidenceFilename(domain.name, input.period, q.format)}"`,
      'Cache-Control': 'no-store',
    });
  },
);
