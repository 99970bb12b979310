// Custom rules per directive (spec section 5): trimmed, ignored if empty, not duplicated; Enter or the add
// button adds. Keywords typed without quotes are quoted ('self'); what no header can carry is refused.
import { addCustomRule, removeCustomRule } from '@csp/shared/configurations/editor';
import { compareDirectives, DIRECTIVES } from '@csp/shared/csp/directives';
import type { CspRules } from '@csp/shared/csp/policy';
import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Select } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** Directives that take sources (not the flag-like ones such as upgrade-insecure-requests). */
const SOURCE_DIRECTIVES = DIRECTIVES.filter(
  (d) =>
    ![
      'upgrade-insecure-requests',
      'report-uri',
      'report-to',
      'sandbox',
      'require-trusted-types-for',
      'trusted-types',
    ].includes(d),
);

export function CustomRulesEditor({
  customRules,
  onChange,
}: {
  customRules: CspRules;
  onChange: (rules: CspRules) => void;
}) {
  const [directive, setDirective] = useState<string>('script-src');
  const [source, setSource] = useState('');
  const [error, setError] = useState<string | undefined>();

  function add() {
    const result = addCustomRule(customRules, directive, source);
    setError(result.error);
    if (result.error) return;
    onChange(result.customRules);
    setSource('');
  }

  const entries = Object.entries(customRules).sort(([a], [b]) => compareDirectives(a, b));
  return (
    <section
      aria-labelledby="custom-rules-heading"
      className="flex flex-col gap-3"
      data-testid="custom-rules"
    >
      <div className="flex flex-col gap-1">
        <h3 id="custom-rules-heading" className="text-sm font-semibold text-foreground">
          Custom rules
        </h3>
        <p className="text-xs text-muted-foreground">
          Sources the crawl could not see (a page behind a login, a widget loaded later). They are added to
          the base analysis' rules.
        </p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <div className="flex flex-col gap-1 sm:w-44">
          <Label htmlFor="custom-rule-directive" className="sr-only">
            Directive
          </Label>
          <Select
            id="custom-rule-directive"
            value={directive}
            onChange={(e) => setDirective(e.target.value)}
            data-testid="custom-rule-directive"
          >
            {SOURCE_DIRECTIVES.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex min-w-0 flex-1 gap-2">
          <Label htmlFor="custom-rule-source" className="sr-only">
            Source
          </Label>
          <Input
            id="custom-rule-source"
            value={source}
            placeholder="https://cdn.example.com or 'self'"
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'custom-rule-error' : undefined}
            onChange={(e) => {
              setSource(e.target.value);
              setError(undefined);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            className="font-mono"
            data-testid="custom-rule-source"
          />
          <Button variant="outline" onClick={add} aria-label="Add rule" data-testid="custom-rule-add">
            <Plus aria-hidden="true" />
            <span className="hidden sm:inline">Add</span>
          </Button>
        </div>
      </div>
      {error ? (
        <p id="custom-rule-error" role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p className="text-sm text-muted-foreground">No custom rules yet.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Custom rules">
          {entries.map(([d, sources]) => (
            <li
              key={d}
              className="flex flex-wrap items-center gap-1.5"
              data-testid="custom-rule"
              data-directive={d}
            >
              <span className="mr-1 font-mono text-xs font-medium text-foreground">{d}</span>
              {sources.map((s) => (
                <span
                  key={s}
                  className="inline-flex max-w-full items-center gap-1 rounded-md bg-slate-100 py-0.5 pr-1 pl-2 font-mono text-xs text-slate-700"
                >
                  <span className="[overflow-wrap:anywhere]" data-testid="custom-rule-source-value">
                    {s}
                  </span>
                  <button
                    type="button"
                    className="rounded p-0.5 text-slate-400 hover:bg-slate-200 hover:text-slate-700"
                    aria-label={`Remove ${s} from ${d}`}
                    onClick={() => onChange(removeCustomRule(customRules, d, s))}
                  >
                    <X className="size-3" aria-hidden="true" />
                  </button>
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
