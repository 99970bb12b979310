// Words and badge colours of the changes timeline: parties, kinds, change types and drift states, short
// digests, and how many pages a list names before it says "and N more".
import type { DriftState } from '@csp/shared/watch/drift';
import type { WatchedScript } from '@csp/shared/watch/snapshot';
import type { BadgeVariant } from '@/components/ui/badge';

export const PARTY_LABELS: Record<WatchedScript['party'], string> = {
  first: 'First party',
  third: 'Third party',
  fourth: 'Fourth party',
};

const KIND_LABELS: Record<WatchedScript['kind'], string> = {
  external: 'External script',
  inline: 'Inline script',
  handler: 'Event handler',
  worker: 'Worker',
};

export const CHANGE_LABELS: Record<
  'added' | 'removed' | 'changed',
  { label: string; variant: BadgeVariant }
> = {
  added: { label: 'Added', variant: 'success' },
  removed: { label: 'Removed', variant: 'warning' },
  changed: { label: 'Changed', variant: 'purple' },
};

export const DRIFT_LABELS: Record<DriftState, { label: string; variant: BadgeVariant; explained: string }> = {
  matches: {
    label: 'Serves the saved policy',
    variant: 'success',
    explained: 'Every crawled page serves the policy of the active configuration.',
  },
  differs: {
    label: 'Drift from the saved policy',
    variant: 'destructive',
    explained: 'Some pages serve a policy other than the one of the active configuration.',
  },
  'none-served': {
    label: 'No policy served',
    variant: 'warning',
    explained: 'No crawled page serves the header of the active configuration.',
  },
};

/** Pages a list names before "and N more" (the rest are counted: a header dropped on 300 pages is one line). */
export const PAGES_SHOWN = 3;

/** `sha384-AbCdEf…`: enough to tell two versions apart at a glance (the full value is in the title). */
export const shortDigest = (digest: string) => (digest.length > 24 ? `${digest.slice(0, 23)}…` : digest);

/** What a script is called: its URL, or its kind and digest for code without one. */
export const scriptName = (s: Pick<WatchedScript, 'url' | 'kind' | 'digest'>) =>
  s.url ?? `${KIND_LABELS[s.kind]} ${shortDigest(s.digest)}`;
