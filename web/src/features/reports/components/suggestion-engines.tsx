// Which engines sent a suggestion's reports: "Firefox only" when one engine alone reports it (a miss the
// crawl's Chromium could not see, such as a favicon or code a site runs only for that engine), and the
// count per engine of the stored reports (sampled, so they can sum to less than the group's count).
import { ENGINE_FAMILIES, ENGINE_FAMILY_NAMES } from '@csp/shared/csp/engines/user-agent';
import type { ReportSuggestion } from '@csp/shared/schemas/report';
import { Badge } from '@/components/ui/badge';
import { formatCount } from '@/lib/format';

export function EngineOnlyBadge({ suggestion }: { suggestion: Pick<ReportSuggestion, 'onlyEngine'> }) {
  if (!suggestion.onlyEngine) return null;
  return (
    <Badge variant="purple" data-testid="engine-only" data-engine={suggestion.onlyEngine}>
      {ENGINE_FAMILY_NAMES[suggestion.onlyEngine]} only
    </Badge>
  );
}

export function SuggestionEngines({ suggestion }: { suggestion: Pick<ReportSuggestion, 'engines'> }) {
  const sent = ENGINE_FAMILIES.filter((f) => suggestion.engines[f] > 0);
  if (sent.length === 0) return null;
  return (
    <p className="text-xs text-muted-foreground" data-testid="suggestion-engines">
      Reported by{' '}
      {sent.map((f, i) => (
        <span key={f} data-engine={f}>
          {i > 0 ? ' · ' : ''}
          {ENGINE_FAMILY_NAMES[f]} <span className="tabular-nums">{formatCount(suggestion.engines[f])}</span>
        </span>
      ))}
    </p>
  );
}
