// How each suggestion class reads on screen, wherever a report suggestion is shown (the reports panel and
// the configuration's suggestions): one label and one badge style per class. Inline code the crawl never
// saw is red for scripts (an injected script runs with the page's rights) and amber for styles (a style
// attribute or element cannot run code: usually a widget's or an extension's).
import type { SuggestionClass } from '@csp/shared/schemas/report';
import type { BadgeVariant } from './ui/badge';

const SUGGESTION_CLASS_LABELS: Record<SuggestionClass, { label: string; badge: BadgeVariant }> = {
  expected: { label: 'Expected', badge: 'secondary' },
  'new-first-party': { label: 'New first-party', badge: 'success' },
  'new-third-party': { label: 'New third party', badge: 'warning' },
  'suspicious-inline': { label: 'Suspicious inline', badge: 'destructive' },
};

const UNKNOWN_INLINE_STYLE = { label: 'Unknown inline style', badge: 'warning' } as const;

/** The label and badge style of a suggestion of this class for this directive. */
export function suggestionBadgeOf(
  suggestionClass: SuggestionClass,
  directive: string,
): { label: string; badge: BadgeVariant } {
  return suggestionClass === 'suspicious-inline' && directive.startsWith('style-src')
    ? UNKNOWN_INLINE_STYLE
    : SUGGESTION_CLASS_LABELS[suggestionClass];
}
