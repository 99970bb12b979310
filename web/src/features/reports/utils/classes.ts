// How each reason a report was dropped reads on screen (the suggestion classes: components/suggestion-class-badge).

import type { DropReason } from '@csp/shared/reports/limits';

export const DROP_REASON_LABELS: Record<DropReason, string> = {
  extension: 'from browser extensions',
  offsite: 'from pages not on this site',
  repeat: 'repeats',
  'other-type': 'not CSP reports',
};
