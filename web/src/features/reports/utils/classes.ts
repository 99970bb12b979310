// How each suggestion class reads on screen: one place for the label, the badge and what it asks of you.

import type { DropReason } from '@csp/shared/reports/limits';
import type { SuggestionClass } from '@csp/shared/schemas/report';
import type { BadgeVariant } from '@/components/ui/badge';

export const SUGGESTION_CLASS_LABELS: Record<SuggestionClass, { label: string; badge: BadgeVariant }> = {
  expected: { label: 'Expected', badge: 'secondary' },
  'new-first-party': { label: 'New first-party', badge: 'success' },
  'new-third-party': { label: 'New third party', badge: 'warning' },
  'suspicious-inline': { label: 'Suspicious inline', badge: 'destructive' },
};

export const DROP_REASON_LABELS: Record<DropReason, string> = {
  extension: 'from browser extensions',
  offsite: 'from pages not on this site',
  repeat: 'repeats',
  'other-type': 'not CSP reports',
};
