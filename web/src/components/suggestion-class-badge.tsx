// How each suggestion class reads on screen, wherever a report suggestion is shown (the reports panel and
// the configuration's suggestions): one label and one badge style per class.
import type { SuggestionClass } from '@csp/shared/schemas/report';
import { Badge, type BadgeVariant } from '@/components/ui/badge';

const SUGGESTION_CLASS_LABELS: Record<SuggestionClass, { label: string; badge: BadgeVariant }> = {
  expected: { label: 'Expected', badge: 'secondary' },
  'new-first-party': { label: 'New first-party', badge: 'success' },
  'new-third-party': { label: 'New third party', badge: 'warning' },
  'suspicious-inline': { label: 'Suspicious inline', badge: 'destructive' },
};

export function SuggestionClassBadge({ suggestionClass }: { suggestionClass: SuggestionClass }) {
  const { label, badge } = SUGGESTION_CLASS_LABELS[suggestionClass];
  return <Badge variant={badge}>{label}</Badge>;
}
