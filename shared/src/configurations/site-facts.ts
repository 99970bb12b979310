// What the audit of a configuration's integrity options needs to know about the site, from what the
// product already holds: the domain's script inventory and the base analysis's Trusted Types dry run. Pure.
import type { TrustedTypesDryRun } from '../schemas/trusted-types';
import type { InventoryEntry } from '../watch/inventory';
import type { SiteFacts } from './compose';

/**
 * External scripts the crawl sees today that an enforced Integrity-Policy would refuse: the external scripts
 * of the inventory, not removed, that the last crawl did not see included with an integrity attribute on
 * every page (an entry from before the crawl recorded attributes counts too: nothing says it has one); null
 * without an inventory (no run folded in).
 */
export function scriptsWithoutIntegrity(
  entries: ReadonlyArray<Pick<InventoryEntry, 'kind' | 'state' | 'seenBy' | 'integrity'>> | null,
): number | null {
  if (entries === null) return null;
  return entries.filter(
    (e) => e.kind === 'external' && e.state !== 'removed' && e.seenBy === 'crawl' && e.integrity !== true,
  ).length;
}

/** The facts for the audit: the inventory's count and the base analysis's Trusted Types verdict. */
export function siteFacts(
  withoutIntegrity: number | null | undefined,
  dryRun: Pick<TrustedTypesDryRun, 'readiness'> | null | undefined,
): SiteFacts {
  return {
    scriptsWithoutIntegrity: withoutIntegrity ?? null,
    trustedTypesReadiness: dryRun?.readiness ?? null,
  };
}
