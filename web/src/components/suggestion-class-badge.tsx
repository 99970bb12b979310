// A report suggestion's class as a badge (its words and style: suggestion-class-label.ts).
import type { SuggestionClass } from '@csp/shared/schemas/report';
import { Badge } from '@/components/ui/badge';
import { suggestionBadgeOf } from './suggestion-class-label';

export function SuggestionClassBadge({
  suggestionClass,
  directive,
}: {
  suggestionClass: SuggestionClass;
  /** The suggestion's directive: inline styles (style-src, style-src-attr...) wear a milder badge. */
  directive: string;
}) {
  const { label, badge } = suggestionBadgeOf(suggestionClass, directive);
  return (
    <Badge variant={badge} data-class={suggestionClass}>
      {label}
    </Badge>
  );
}
