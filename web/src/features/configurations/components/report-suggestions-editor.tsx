// Suggestions from violation reports (spec section 4), shown when "Use violation reports" is on: each blocked
// source per directive is open, accepted (added to the custom rules, out of the ignored list) or ignored
// (and can be un-ignored). Suspicious inline code is never accepted in one click. The suggestions come from
// the reports' API, which the route hands in (loadSuggestions); they share the reports panel's cache.
import {
  acceptSuggestion,
  ignoreSuggestion,
  isSuggestionSavable,
  type SuggestionState,
  suggestionStatus,
  unignoreSuggestion,
} from '@csp/shared/configurations/editor';
import type { CspRules } from '@csp/shared/csp/policy';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { ReportSuggestion, ReportSuggestionList } from '@csp/shared/schemas/report';
import { useQuery } from '@tanstack/react-query';
import { Check, EyeOff, RotateCcw } from 'lucide-react';
import { SuggestionClassBadge } from '@/components/suggestion-class-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ShowMoreButton, useShownFirst } from '@/components/ui/show-more';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { useFetchFailureToast } from '@/hooks/use-fetch-failure-toast';
import { formatCount } from '@/lib/format';
import { REPORTS_REFRESH_MS, reportSuggestionsQueryKey } from '@/lib/query-keys';

const DAYS = 7;

/** Reads a domain's report suggestions over the last `days` days. */
export type LoadSuggestions = (domainId: string, days: number) => Promise<ReportSuggestionList>;

export function ReportSuggestionsEditor({
  domainId,
  enabled,
  onEnabledChange,
  state,
  composed,
  onChange,
  loadSuggestions,
}: {
  domainId: string;
  enabled: boolean;
  onEnabledChange: (enabled: boolean) => void;
  state: SuggestionState;
  /** The policy as composed now: accepted suggestions go into the directive a browser consults. */
  composed: CspRules;
  onChange: (state: SuggestionState) => void;
  loadSuggestions: LoadSuggestions;
}) {
  const suggestions = useQuery({
    queryKey: reportSuggestionsQueryKey(domainId, DAYS),
    queryFn: () => loadSuggestions(domainId, DAYS),
    refetchInterval: REPORTS_REFRESH_MS,
    enabled,
  });
  useFetchFailureToast(suggestions.error, 'Failed to fetch URI reports');
  const list = suggestions.data?.suggestions ?? [];
  const { shown, more } = useShownFirst(list, REPORT_LIMITS.suggestionsListedFirst);

  return (
    <section
      aria-labelledby="suggestions-heading"
      className="flex flex-col gap-3"
      data-testid="config-suggestions"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h3 id="suggestions-heading" className="text-sm font-semibold text-foreground">
            Suggestions from reports
          </h3>
          <p className="text-xs text-muted-foreground">
            What browsers reported as blocked in the last 7 days, compared with the latest crawl.
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-2 text-sm">
          <Switch
            id="include-uri-reports"
            checked={enabled}
            onCheckedChange={onEnabledChange}
            aria-label="Use violation reports"
            data-testid="include-uri-reports"
          />
          <span className="hidden sm:inline" aria-hidden="true">
            Use reports
          </span>
        </div>
      </div>
      {!enabled ? null : suggestions.isLoading ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner className="size-4" /> Loading suggestions...
        </p>
      ) : suggestions.error ? (
        <p className="text-sm text-destructive">Failed to fetch URI reports</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-muted-foreground">No suggestions: nothing was reported as blocked.</p>
      ) : (
        <>
          <ul className="flex flex-col gap-2">
            {shown.map((s) => (
              <SuggestionRow
                key={`${s.directive} ${s.source} ${s.blocked} ${s.reason}`}
                suggestion={s}
                status={suggestionStatus(state, composed, s)}
                savable={isSuggestionSavable(composed, s)}
                onAccept={() => onChange(acceptSuggestion(state, composed, s))}
                onIgnore={() => onChange(ignoreSuggestion(state, s))}
                onUnignore={() => onChange(unignoreSuggestion(state, s))}
              />
            ))}
          </ul>
          <ShowMoreButton {...more} testId="config-suggestions-more" />
        </>
      )}
    </section>
  );
}

function SuggestionRow({
  suggestion: s,
  status,
  savable,
  onAccept,
  onIgnore,
  onUnignore,
}: {
  suggestion: ReportSuggestion;
  status: 'open' | 'accepted' | 'ignored';
  /** False for a directive no configuration can hold (a report named it `constructor`): no buttons. */
  savable: boolean;
  onAccept: () => void;
  onIgnore: () => void;
  onUnignore: () => void;
}) {
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-border p-3"
      data-testid="config-suggestion"
      data-class={s.class}
      data-status={status}
      data-blocked={s.blocked}
      data-directive={s.directive}
    >
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <SuggestionClassBadge suggestionClass={s.class} directive={s.directive} />
        <span className="font-mono text-xs text-muted-foreground">{s.directive}</span>
        <code className="min-w-0 font-mono text-xs [overflow-wrap:anywhere] text-foreground">
          {s.acceptable ? s.source : s.blocked}
        </code>
        <span className="ml-auto text-xs text-muted-foreground tabular-nums">
          {formatCount(s.count)} {s.count === 1 ? 'report' : 'reports'}
        </span>
      </div>
      <p className="text-xs text-muted-foreground">{s.reason}</p>
      <div className="flex flex-wrap items-center gap-2">
        {!savable ? (
          <span className="text-xs text-muted-foreground" data-testid="suggestion-not-savable">
            Not a CSP directive: nothing a policy can allow or ignore.
          </span>
        ) : status === 'accepted' ? (
          <Badge variant="success">
            <Check className="size-3" aria-hidden="true" /> Accepted
          </Badge>
        ) : status === 'ignored' ? (
          <>
            <Badge variant="secondary">Ignored</Badge>
            <Button variant="ghost" size="sm" onClick={onUnignore} data-action="unignore">
              <RotateCcw aria-hidden="true" />
              Un-ignore
            </Button>
          </>
        ) : (
          <>
            <Button
              size="sm"
              variant="outline"
              onClick={onAccept}
              disabled={!s.acceptable}
              data-action="accept"
              title={
                s.acceptable
                  ? undefined
                  : 'Review it first: suspicious inline code is never allowed in one click'
              }
            >
              <Check aria-hidden="true" />
              Accept
            </Button>
            <Button variant="ghost" size="sm" onClick={onIgnore} data-action="ignore">
              <EyeOff aria-hidden="true" />
              Ignore
            </Button>
            {!s.acceptable ? (
              <span className="text-xs text-muted-foreground">Review the page before allowing anything.</span>
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}
