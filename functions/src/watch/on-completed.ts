// What happens to a domain's watch after one of its analyses completed (called by the crawl writer, once the
// analysis item says completed): the run's snapshot is stored, compared with the domain's previous run
// (compareRuns) and the policy the site serves with the domain's active saved configuration (policyDrift);
// the changes are stored with the run, once. Then, only for a run stored now (not a redelivered one), the
// domain's script inventory takes the run in (watch/inventory-update.ts) and the alerts the changes call
// for are raised (shared/src/alerts/from-run.ts): one per kind and run, drift grouped across runs. Each step
// stands alone: an inventory failure does not keep the alerts from being raised. Answers the inventory as the
// run left it (null when no inventory was updated).

import { alertsFromRun, pendingReviewAlert } from '@csp/shared/alerts/from-run';
import { composePolicy } from '@csp/shared/configurations/compose';
import type { Configuration } from '@csp/shared/schemas/configuration';
import type { Domain } from '@csp/shared/schemas/domain';
import { compareRuns, type RunChanges } from '@csp/shared/watch/compare';
import { type Drift, policyDrift } from '@csp/shared/watch/drift';
import type { InventoryEntry } from '@csp/shared/watch/inventory';
import type { RunSnapshot } from '@csp/shared/watch/snapshot';
import { type AlertRouting, alertRoutingOf, raiseAndQueue } from '../alerts/deliver';
import { errorFields, type Logger } from '../logger';
import type { AnalysisRecord } from '../store/analyses';
import { listDomainConfigurations } from '../store/configurations';
import { type Db, nowIso } from '../store/db';
import { getDomain } from '../store/domains';
import { loadInventory } from '../store/script-inventory';
import { previousSnapshot, putWatchRun, type WatchCounts } from '../store/watch-snapshots';
import { updateInventory } from './inventory-update';

export async function onAnalysisCompleted(
  db: Db,
  log: Logger,
  analysis: Pick<AnalysisRecord, 'id' | 'domainId'>,
  snapshot: RunSnapshot,
): Promise<InventoryEntry[] | null> {
  if (!analysis.domainId) return null; // a one-off analysis of a URL has no domain to watch
  const domainId = analysis.domainId;
  const run = await recordRun(db, log, domainId, analysis.id, snapshot);
  if (!run) return null;
  const inventory = await updateInventory(db, { domainId, snapshot: run.snapshot }).catch(
    (error: unknown) => {
      log.error('script inventory update failed', errorFields(error));
      return null;
    },
  );
  // Read once for both kinds of alerts: a deleted domain raises none.
  const domain = await getDomain(db, domainId);
  if (!domain) return inventory?.entries ?? null;
  const at = Date.parse(run.snapshot.completedAt);
  // The domain's alert settings (or its team's) are read once for all of the run's alerts.
  const routing = await alertRoutingOf(db, domain).catch((error: unknown) => {
    log.error('reading the alert settings failed', errorFields(error));
    return null;
  });
  if (!routing) return inventory?.entries ?? null;
  await raisePendingAlert(db, domain, inventory?.entries ?? null, routing, at).catch((error: unknown) =>
    log.error('raising the pending-review alert failed', errorFields(error)),
  );
  await raiseRunAlerts(db, domain, analysis.id, run, routing, at).catch((error: unknown) =>
    log.error('raising the run alerts failed', errorFields(error)),
  );
  // The inventory as the run left it (the integrity proposal reads its digest history).
  return inventory?.entries ?? null;
}

/**
 * Scripts pending review for longer than the domain's alerts allow, from the inventory as the run left it
 * (read again only when its update failed).
 */
async function raisePendingAlert(
  db: Db,
  domain: Domain,
  entries: InventoryEntry[] | null,
  routing: AlertRouting,
  now: number,
) {
  const current = entries ?? (await loadInventory(db, domain.id)).entries;
  const alert = pendingReviewAlert(current, routing.pendingDays, now);
  if (!alert) return;
  await raiseAndQueue(
    db,
    { domainId: domain.id, domainName: domain.name, ...alert, path: `/domains/${domain.id}` },
    now,
    routing,
  );
}

async function raiseRunAlerts(
  db: Db,
  domain: Domain,
  analysisId: string,
  run: { changes: RunChanges | null; drift: Drift | null },
  routing: AlertRouting,
  at: number,
) {
  for (const alert of alertsFromRun({ analysisId, changes: run.changes, drift: run.drift })) {
    await raiseAndQueue(
      db,
      { domainId: domain.id, domainName: domain.name, ...alert, path: `/analysis/${analysisId}` },
      at,
      routing,
    );
  }
}

/** The domain's active configuration: the one edited last among the active ones. */
export function activeConfiguration(configurations: readonly Configuration[]): Configuration | null {
  const active = configurations.filter((c) => c.isActive);
  return active.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1))[0] ?? null;
}

async function recordRun(db: Db, log: Logger, domainId: string, analysisId: string, run: RunSnapshot) {
  // The crawler's word is taken for what it saw, not for which analysis it is or when it ended.
  const snapshot: RunSnapshot = { ...run, analysisId, completedAt: nowIso() };
  const [previous, configurations] = await Promise.all([
    previousSnapshot(db, domainId, analysisId),
    listDomainConfigurations(db, domainId),
  ]);
  const changes = previous ? compareRuns(previous, snapshot) : null;
  const config = activeConfiguration(configurations);
  let drift: Drift | null = null;
  if (config) {
    const composed = composePolicy(config, null);
    drift = policyDrift(snapshot.headers, {
      rules: composed.rules,
      reportOnly: composed.rollout !== 'enforce',
      // Composed without a report endpoint (no request here): where reports go is not compared.
      ignoreReporting: true,
    });
  }
  const counts: WatchCounts = {
    scriptsAdded: changes?.scripts.added.length ?? 0,
    scriptsChanged: changes?.scripts.changed.length ?? 0,
    scriptsRemoved: changes?.scripts.removed.length ?? 0,
    originChanges: changes?.origins.length ?? 0,
    policyChanges: changes?.policy.length ?? 0,
    headerChanges: changes?.headers.length ?? 0,
    drift: drift?.state ?? null,
  };
  const stored = await putWatchRun(db, {
    analysisId,
    domainId,
    completedAt: snapshot.completedAt,
    previousAnalysisId: previous?.analysisId ?? null,
    counts,
    snapshot,
    changes,
    drift,
  });
  if (!stored) {
    log.warn('watch run already stored; left as it was', { domainId });
    return null;
  }
  return { snapshot, changes, drift };
}
