// What the audit of a configuration's integrity options needs to know about the site, from what the
// product already holds: the domain's script inventory and the base analysis's Trusted Types dry run. Pure.
import type { TrustedTypesDryRun } from '../schemas/trusted-types';
import type { InventoryEntry } from '../watch/inventory';
import type { SiteFacts } from './compose';

/**
 * External scripts the crawl sees today that an enforced Integrity-Policy would refuse: every external
 * script of the inventory that is not removed. The crawl does not record a script tag's integrity attribute
 * yet, so none is known to carry one and all of them count; null without an inventory (no run folded in).
 */
export function scriptsWithoutIntegrity(
  entries: ReadonlyArray<Pick<InventoryEntry, 'kind' | 'state' | 'seenBy'>> | null,
): number | null {
  if (entries === null) return null;
  return entries.filter((e) => e.kind === 'external' && e.state !== 'removed' && e.seenBy === 'crawl').length;
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
