// Report groups judged against the latest completed crawl, each with its class and the reason. Accepting a
// suggestion into a policy is the workbench's job; here they are read.
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { ReportSuggestionList } from '@csp/shared/schemas/report';
import { SuggestionClassBadge } from '@/components/suggestion-class-badge';
import { ShowMoreButton, useShownFirst } from '@/components/ui/show-more';
import { countOf, formatCount } from '@/lib/format';
import { ageLabel } from '../utils/age';
import { EngineOnlyBadge, SuggestionEngines } from './suggestion-engines';

export function ReportSuggestions({ data, now }: { data: ReportSuggestionList; now: number }) {
  const { shown, more } = useShownFirst(data.suggestions, REPORT_LIMITS.suggestionsListedFirst);
  if (data.suggestions.length === 0) return null;
  return (
    <section className="flex flex-col gap-2" aria-labelledby="report-suggestions-title">
      <h3 id="report-suggestions-title" className="text-sm font-semibold">
        Suggestions
      </h3>
      {data.analysisId === null ? (
        <p className="text-xs text-muted-foreground">
          No completed analysis of this domain yet: nothing can be recognised as expected, and inline code
          cannot be told from an injection. Run an analysis to classify these reports.
        </p>
      ) : null}
      <ul className="flex flex-col gap-2">
        {shown.map((s) => {
          return (
            <li
              key={`${s.directive} ${s.blocked} ${s.source}`}
              className="flex flex-col gap-1.5 rounded-lg border border-slate-200 p-3"
              data-testid="report-suggestion"
              data-class={s.class}
            >
              <div className="flex flex-wrap items-center gap-2">
                <SuggestionClassBadge suggestionClass={s.class} directive={s.directive} />
                <EngineOnlyBadge suggestion={s} />
                {/* Code that may be an injection is shown as what was blocked, never as a source to add. */}
                <code className="[overflow-wrap:anywhere] font-mono text-sm">
                  {s.acceptable ? `${s.directive} ${s.source}` : `${s.directive}: ${s.blocked} code blocked`}
                </code>
                <span className="ml-auto text-xs text-muted-foreground">
                  {formatCount(s.count)} × · last seen {ageLabel(s.lastSeen, now)}
                </span>
              </div>
              <p className="text-xs text-muted-foreground">{s.reason}</p>
              <SuggestionEngines suggestion={s} />
              {s.pages.length > 0 ? (
                <p className="[overflow-wrap:anywhere] text-xs text-muted-foreground">
                  On {s.pages.slice(0, 3).join(', ')}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <ShowMoreButton {...more} testId="report-suggestions-more" />
      {data.other.groups > 0 ? (
        <p className="text-xs text-muted-foreground">
          Judged from the {formatCount(REPORT_LIMITS.groupsShown)} most reported groups;{' '}
          {countOf(data.other.groups, 'less frequent group')} {data.other.groups === 1 ? 'is' : 'are'} not
          judged here.
        </p>
      ) : null}
    </section>
  );
}
