// What the owner does with the script inventory: authorize scripts (many at once, one justification), add
// a URL-pattern rule (the pending scripts it matches are authorized now, later versions when a run sees
// them), delete one. Each writes the entries it changes (conditional on their rev, retried when a run was
// folded in meanwhile) and appends its history rows.
import type { AuthorizeScriptsInput, CreateScriptRuleInput } from '@csp/shared/schemas/script-inventory';
import { SCRIPT_INVENTORY_LIMITS } from '@csp/shared/schemas/script-inventory';
import {
  type AuthorizationRule,
  applyRule,
  authorize,
  type InventoryEntry,
  withoutRule,
} from '@csp/shared/watch/inventory';
import type { Db } from '../store/db';
import { newId } from '../store/ids';
import {
  appendScriptHistory,
  deleteScriptRule,
  historyRow,
  InventoryConflict,
  loadInventory,
  putScriptEntries,
  putScriptRule,
  type StoredEntry,
} from '../store/script-inventory';

const MAX_ATTEMPTS = 5;

export interface Reviewer {
  userId: string;
  username: string;
}

/** Writes the entries `change` alters (retrying on conflicts), returning them as written. */
async function changeEntries(
  db: Db,
  domainId: string,
  change: (entries: InventoryEntry[]) => InventoryEntry[],
): Promise<{ before: Map<string, StoredEntry>; changed: InventoryEntry[] }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { entries } = await loadInventory(db, domainId);
    const before = new Map(entries.map((e) => [e.key, e]));
    const after = change(entries.map(({ rev: _rev, ...e }) => e));
    const changed = after.filter((e) => {
      const old = before.get(e.key);
      return (
        !old || old.state !== e.state || JSON.stringify(old.authorization) !== JSON.stringify(e.authorization)
      );
    });
    const { conflict } = await putScriptEntries(
      db,
      domainId,
      changed.map((entry) => ({ entry, rev: before.get(entry.key)?.rev ?? null })),
    );
    // Entries written before a conflict are written for good; the retry finds them unchanged.
    if (!conflict) return { before, changed };
  }
  throw new InventoryConflict();
}

/**
 * Authorizes scripts for their current content (or any content). Every key must name a script of the
 * inventory that is not removed; otherwise nothing changes and the keys that do not are returned.
 */
export async function authorizeScripts(
  db: Db,
  domainId: string,
  input: AuthorizeScriptsInput,
  by: Reviewer,
  at = new Date().toISOString(),
): Promise<{ authorized: number } | { refused: string[] }> {
  const { entries } = await loadInventory(db, domainId);
  const known = new Map(entries.map((e) => [e.key, e]));
  const refused = input.keys.filter(
    (k) => known.get(k)?.state === undefined || known.get(k)?.state === 'removed',
  );
  if (refused.length > 0) return { refused };
  const keys = new Set(input.keys);
  const { changed } = await changeEntries(db, domainId, (current) =>
    authorize(current, keys, {
      userId: by.userId,
      at,
      justification: input.justification,
      anyContent: input.anyContent,
    }),
  );
  await appendScriptHistory(
    db,
    domainId,
    changed.map((e) =>
      historyRow({
        type: 'authorized',
        at,
        scriptKey: e.key,
        by: by.userId,
        byName: by.username,
        justification: input.justification,
        digest: e.digest,
        state: 'authorized',
        anyContent: input.anyContent,
      }),
    ),
  );
  return { authorized: changed.length };
}

/** Adds a rule; null when the domain has as many as it may. */
export async function addScriptRule(
  db: Db,
  domainId: string,
  input: CreateScriptRuleInput,
  by: Reviewer,
  at = new Date().toISOString(),
): Promise<{ rule: AuthorizationRule; authorized: number } | null> {
  const { rules } = await loadInventory(db, domainId);
  if (rules.length >= SCRIPT_INVENTORY_LIMITS.rulesPerDomain) return null;
  const rule: AuthorizationRule = {
    id: newId(Date.parse(at)),
    pattern: input.pattern,
    anyContent: input.anyContent,
    justification: input.justification,
    by: by.userId,
    at,
  };
  await putScriptRule(db, domainId, rule);
  await appendScriptHistory(db, domainId, [
    historyRow({
      type: 'rule-added',
      at,
      ruleId: rule.id,
      by: by.userId,
      byName: by.username,
      justification: rule.justification,
      anyContent: rule.anyContent,
      pattern: rule.pattern,
    }),
  ]);
  const { changed } = await changeEntries(db, domainId, (current) => applyRule(current, rule));
  await appendScriptHistory(
    db,
    domainId,
    changed.map((e) =>
      historyRow({
        type: 'authorized',
        at,
        scriptKey: e.key,
        ruleId: rule.id,
        by: by.userId,
        byName: by.username,
        justification: rule.justification,
        digest: e.digest,
        state: 'authorized',
        anyContent: rule.anyContent,
        pattern: rule.pattern,
      }),
    ),
  );
  return { rule, authorized: changed.length };
}

/** Deletes a rule; false when the domain has none by that id. */
export async function removeScriptRule(
  db: Db,
  domainId: string,
  ruleId: string,
  by: Reviewer,
  at = new Date().toISOString(),
): Promise<boolean> {
  const { rules } = await loadInventory(db, domainId);
  const rule = rules.find((r) => r.id === ruleId);
  if (!rule || !(await deleteScriptRule(db, domainId, ruleId))) return false;
  await changeEntries(db, domainId, (current) => withoutRule(current, ruleId));
  await appendScriptHistory(db, domainId, [
    historyRow({
      type: 'rule-deleted',
      at,
      ruleId,
      by: by.userId,
      byName: by.username,
      pattern: rule.pattern,
      anyContent: rule.anyContent,
      justification: rule.justification,
    }),
  ]);
  return true;
}
