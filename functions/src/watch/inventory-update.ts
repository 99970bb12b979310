// Folding a completed run into its domain's script inventory, and adding the scripts visitors' reports name.
// The judgement is pure (reconcileInventory, addFieldScripts in shared/src/watch/inventory.ts); this loads
// the inventory, writes only the entries whose stored form changed, appends one history row per event, and
// returns the events (a changed authorized script that is pending again is the alert).
//
// Cost: the first run of a domain writes each script once, its history rows and META. A re-run of an
// unchanged site writes META only: a script's last-seen time is the last run's for every script that is not
// removed, kept once on META (store/script-inventory.ts), so no script item is rewritten to move it.

import {
  type AuthorizationRule,
  addFieldScripts,
  type InventoryEntry,
  type InventoryEvent,
  reconcileInventory,
} from '@csp/shared/watch/inventory';
import type { RunSnapshot } from '@csp/shared/watch/snapshot';
import type { Db } from '../store/db';
import {
  appendScriptHistory,
  existingScriptKeys,
  historyRow,
  InventoryConflict,
  loadInventory,
  type NewHistoryRow,
  putInventoryMeta,
  putScriptEntries,
  reserveFieldScripts,
  type StoredEntry,
} from '../store/script-inventory';

/** Attempts when the owner changes the inventory while a run is folded in. */
const MAX_ATTEMPTS = 5;

/** The fields of an entry as stored, without what follows from META (last seen of a script still seen). */
function storedForm(e: InventoryEntry): string {
  const { lastSeen: _implied, ...rest } = e;
  const active = e.state !== 'removed' && e.seenBy === 'crawl';
  const digests = e.digests.map((d) => (active && d.digest === e.digest ? { ...d, lastSeen: '' } : d));
  return canonical({ ...rest, digests, lastSeen: active ? '' : e.lastSeen });
}

/** JSON with object keys sorted, so two equal entries built in different orders compare equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function historyFor(
  event: InventoryEvent,
  before: StoredEntry | undefined,
  after: InventoryEntry,
  rules: readonly AuthorizationRule[],
  run: { at: string; analysisId: string },
): NewHistoryRow[] {
  const base = { at: run.at, analysisId: run.analysisId, scriptKey: event.key };
  switch (event.type) {
    case 'new-pending':
      return [historyRow({ ...base, type: 'seen', digest: after.digest, state: 'pending' })];
    case 'new-authorized': {
      const rule = rules.find((r) => r.id === event.ruleId);
      return [
        historyRow({ ...base, type: 'seen', digest: after.digest, state: 'authorized' }),
        historyRow({
          ...base,
          type: 'authorized',
          digest: after.digest,
          state: 'authorized',
          ruleId: event.ruleId,
          by: rule?.by ?? null,
          justification: rule?.justification ?? null,
          anyContent: rule?.anyContent ?? null,
          pattern: rule?.pattern ?? null,
        }),
      ];
    }
    case 'content-changed': {
      const rows = [
        historyRow({
          ...base,
          type: 'content-changed',
          before: event.before,
          digest: event.after,
          state: event.state,
        }),
      ];
      if (before?.state === 'authorized' && event.state === 'pending')
        rows.push(historyRow({ ...base, type: 'pending-again', digest: event.after, state: 'pending' }));
      return rows;
    }
    case 'removed':
      return [historyRow({ ...base, type: 'removed', digest: after.digest, state: 'removed' })];
    case 'returned':
      return [historyRow({ ...base, type: 'returned', digest: after.digest, state: event.state })];
    case 'field-only':
      return [historyRow({ ...base, analysisId: null, type: 'field-reported', state: 'pending' })];
  }
}

/**
 * Folds a completed run into the domain's inventory. A run already folded in (a redelivered completion) or
 * older than the last one folded changes nothing. `at` is the run's time (default: its completedAt). Also
 * gives the inventory's entries as they stand afterwards (what reads after the fold need, read once here).
 */
export async function updateInventory(
  db: Db,
  input: {
    domainId: string;
    snapshot: Pick<RunSnapshot, 'analysisId' | 'completedAt' | 'scripts'>;
    at?: string;
  },
): Promise<{ events: InventoryEvent[]; entries: InventoryEntry[] }> {
  const { domainId, snapshot } = input;
  const at = input.at ?? snapshot.completedAt;
  const events: InventoryEvent[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const inventory = await loadInventory(db, domainId);
    const { meta } = inventory;
    if (meta && (meta.analysisId === snapshot.analysisId || meta.lastRunAt > at)) {
      return { events, entries: inventory.entries.map(({ rev: _rev, ...e }) => e) };
    }
    const old = new Map(inventory.entries.map((e) => [e.key, e]));
    const folded = reconcileInventory(
      inventory.entries.map(({ rev: _rev, ...e }) => e),
      { scripts: snapshot.scripts, completedAt: at },
      inventory.rules,
    );
    const writes = folded.entries.flatMap((entry) => {
      const before = old.get(entry.key);
      if (before) {
        const { rev: _rev, ...stored } = before;
        if (storedForm(stored) === storedForm(entry)) return [];
      }
      return [{ entry, rev: before?.rev ?? null }];
    });
    const { written, conflict } = await putScriptEntries(db, domainId, writes);
    const after = new Map(folded.entries.map((e) => [e.key, e]));
    const done = folded.events.filter((e) => written.has(e.key));
    await appendScriptHistory(
      db,
      domainId,
      done.flatMap((e) =>
        historyFor(e, old.get(e.key), after.get(e.key)!, inventory.rules, {
          at,
          analysisId: snapshot.analysisId,
        }),
      ),
    );
    events.push(...done);
    if (conflict) continue;
    try {
      await putInventoryMeta(db, domainId, { lastRunAt: at, analysisId: snapshot.analysisId }, meta);
      return { events, entries: folded.entries };
    } catch (err) {
      if (!(err instanceof InventoryConflict)) throw err;
    }
  }
  throw new InventoryConflict();
}

/** Scripts one batch of reports may add (the rest wait for a later batch). */
const FIELD_SCRIPTS_PER_CALL = 20;
/** Scripts only reports named, per domain. */
export const FIELD_SCRIPTS_PER_DOMAIN = 500;

/**
 * Lists the scripts reports name (blocked script URLs) that the inventory does not hold, as seen by the field
 * only. Bounded: a few point reads per batch, at most FIELD_SCRIPTS_PER_CALL new scripts, and
 * FIELD_SCRIPTS_PER_DOMAIN in all.
 */
export async function recordFieldScripts(
  db: Db,
  domain: { id: string; url: string },
  urls: Iterable<string>,
  at: string,
): Promise<{ events: InventoryEvent[] }> {
  const site = new Set([new URL(domain.url).origin]);
  const candidates = addFieldScripts([], urls, at, site).entries.slice(0, FIELD_SCRIPTS_PER_CALL);
  if (candidates.length === 0) return { events: [] };
  const known = await existingScriptKeys(
    db,
    domain.id,
    candidates.map((c) => c.key),
  );
  const fresh = candidates.filter((c) => !known.has(c.key));
  if (fresh.length === 0) return { events: [] };
  if (!(await reserveFieldScripts(db, domain.id, fresh.length, FIELD_SCRIPTS_PER_DOMAIN)))
    return { events: [] };
  // A conditional put each: a crawl that folded the same script in meanwhile keeps its entry.
  const { written } = await putScriptEntries(
    db,
    domain.id,
    fresh.map((entry) => ({ entry, rev: null })),
  );
  const events: InventoryEvent[] = fresh
    .filter((e) => written.has(e.key))
    .map((e) => ({ type: 'field-only', key: e.key }));
  await appendScriptHistory(
    db,
    domain.id,
    events.map((e) => historyRow({ type: 'field-reported', at, scriptKey: e.key, state: 'pending' })),
  );
  return { events };
}
