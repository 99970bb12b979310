// Words and badge colours of the inventory's states, parties and history events, and short digests.
import type { HistoryEventType } from '@csp/shared/schemas/script-inventory';
import type { InventoryEntry } from '@csp/shared/watch/inventory';
import type { BadgeVariant } from '@/components/ui/badge';

export const STATE_LABELS: Record<InventoryEntry['state'], { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Pending review', variant: 'warning' },
  authorized: { label: 'Authorized', variant: 'success' },
  removed: { label: 'Removed', variant: 'secondary' },
};

export const PARTY_LABELS: Record<InventoryEntry['party'], string> = {
  first: 'First party',
  third: 'Third party',
  fourth: 'Fourth party',
};

export const KIND_LABELS: Record<InventoryEntry['kind'], string> = {
  external: 'External script',
  inline: 'Inline script',
  handler: 'Event handler',
  worker: 'Worker',
};

export const EVENT_LABELS: Record<HistoryEventType, string> = {
  seen: 'First seen',
  'content-changed': 'Content changed',
  'pending-again': 'Pending review again',
  authorized: 'Authorized',
  removed: 'Removed (no longer seen)',
  returned: 'Seen again',
  'field-reported': 'Reported by visitors',
  'rule-added': 'Rule added',
  'rule-deleted': 'Rule deleted',
};

/** `sha384-AbCdEf…` : enough to tell two versions apart at a glance (the full value is in the title). */
export const shortDigest = (digest: string | null) =>
  digest === null ? 'unknown' : digest.length > 20 ? `${digest.slice(0, 19)}…` : digest;

/** What the row calls the script: its URL, or its kind for code without one. */
export const scriptName = (e: Pick<InventoryEntry, 'url' | 'kind' | 'digest'>) =>
  e.url ?? `${KIND_LABELS[e.kind]} ${shortDigest(e.digest)}`;
