// The Scripts panel's list: the inventory filtered (state, party, changed in the last run), in review order
// (pending first, removed last, then by party and URL), one page of it.
import { SCRIPT_INVENTORY_LIMITS, type ScriptListQuery, type ScriptView } from '../schemas/script-inventory';
import { byCodeUnits } from '../text/order';
import { INVENTORY_STATES, type InventoryEntry } from './inventory';
import { SCRIPT_PARTIES } from './snapshot';

const STATE_ORDER: Record<InventoryEntry['state'], number> = { pending: 0, authorized: 1, removed: 2 };
const PARTY_ORDER = Object.fromEntries(SCRIPT_PARTIES.map((p, i) => [p, i])) as Record<
  InventoryEntry['party'],
  number
>;

/** Whether the entry's current content was first seen by the run at `lastRunAt` (new, or changed). */
export function changedInRun(entry: InventoryEntry, lastRunAt: string | null): boolean {
  if (lastRunAt === null || entry.state === 'removed' || entry.digest === null) return false;
  return entry.digests.find((d) => d.digest === entry.digest)?.firstSeen === lastRunAt;
}

export function selectScripts(
  entries: readonly InventoryEntry[],
  lastRunAt: string | null,
  q: ScriptListQuery,
): {
  scripts: ScriptView[];
  total: number;
  nextCursor: string | null;
  counts: Record<InventoryEntry['state'], number>;
} {
  const counts = Object.fromEntries(INVENTORY_STATES.map((s) => [s, 0])) as Record<
    InventoryEntry['state'],
    number
  >;
  for (const e of entries) counts[e.state]++;
  const matching = entries
    .map((e) => ({ ...e, changedInLastRun: changedInRun(e, lastRunAt) }))
    .filter(
      (e) =>
        (!q.state || e.state === q.state) &&
        (!q.party || e.party === q.party) &&
        (q.changed === undefined || e.changedInLastRun === (q.changed === 'true')),
    )
    .sort(
      (a, b) =>
        STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
        PARTY_ORDER[a.party] - PARTY_ORDER[b.party] ||
        byCodeUnits(a.key, b.key),
    );
  const start = Number(q.cursor ?? 0);
  const limit = q.limit ?? SCRIPT_INVENTORY_LIMITS.pageSize;
  const end = start + limit;
  return {
    scripts: matching.slice(start, end),
    total: matching.length,
    nextCursor: end < matching.length ? String(end) : null,
    counts,
  };
}
