// One directive of a policy as a collapsible card: its fixed icon, name, what it governs, how many sources,
// a risk badge, and the sources each labelled with their kind (spec: script-src starts open). Which sources
// are a security risk comes from the policy's audit (issueSources), so card, badge and grade agree.
import {
  DIRECTIVE_TABLE,
  ignoredSources,
  isDirective,
  isHash,
  isKeyword,
  isNonce,
  isSchemeSource,
} from '@csp/shared/csp/directives';
import { ChevronDown, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/class-names';
import { directiveIcon } from './directive-icons';

function sourceKind(source: string): string {
  if (isKeyword(source)) return 'keyword';
  if (isNonce(source)) return 'nonce';
  if (isHash(source)) return 'hash';
  if (isSchemeSource(source)) return 'scheme';
  if (source.startsWith("'")) return 'keyword';
  return 'host';
}

export function DirectiveCard({
  directive,
  sources,
  issues,
  open,
  onOpenChange,
}: {
  directive: string;
  sources: string[];
  /** Sources the audit reports as a security issue in this directive. */
  issues: ReadonlySet<string>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const contentId = useId();
  const Icon = directiveIcon(directive);
  const governs = isDirective(directive) ? DIRECTIVE_TABLE[directive].governs : 'custom directive';
  const risky = sources.filter((s) => issues.has(s.toLowerCase()) || issues.has(s));
  const ignored = ignoredSources(directive, sources);
  return (
    <div
      className={cn(
        'rounded-lg border bg-card transition-colors',
        open ? 'border-slate-300' : 'border-border',
      )}
      data-testid="directive-card"
      data-directive={directive}
      data-state={open ? 'open' : 'closed'}
    >
      <h4>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={contentId}
          onClick={() => onOpenChange(!open)}
          className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left transition-colors hover:bg-slate-50 sm:px-4"
        >
          <span
            className={cn(
              'flex size-8 shrink-0 items-center justify-center rounded-lg ring-1',
              risky.length > 0
                ? 'bg-amber-50 text-amber-600 ring-amber-100'
                : 'bg-primary-soft text-primary ring-primary/10',
            )}
            aria-hidden="true"
          >
            <Icon className="size-4" />
          </span>
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="font-mono text-sm font-medium [overflow-wrap:anywhere] text-foreground">
              {directive}
            </span>
            <span className="truncate text-xs text-muted-foreground">{governs}</span>
          </span>
          {risky.length > 0 ? (
            <Badge variant="warning" className="hidden sm:inline-flex">
              <TriangleAlert className="size-3" aria-hidden="true" />
              Risky
            </Badge>
          ) : null}
          <Badge variant="secondary" className="tabular-nums">
            <span className="sm:hidden">{sources.length === 0 ? '—' : sources.length}</span>
            <span className="hidden sm:inline">
              {sources.length === 0
                ? 'no value'
                : `${sources.length} ${sources.length === 1 ? 'source' : 'sources'}`}
            </span>
          </Badge>
          <ChevronDown
            className={cn('size-4 shrink-0 text-slate-400 transition-transform', open && 'rotate-180')}
            aria-hidden="true"
          />
        </button>
      </h4>
      {open ? (
        <div id={contentId} className="border-t border-border px-3 py-3 sm:px-4">
          {sources.length === 0 ? (
            <p className="text-sm text-muted-foreground">This directive takes no sources.</p>
          ) : (
            <ul
              className="flex max-h-80 flex-col gap-1.5 overflow-y-auto"
              aria-label={`Sources of ${directive}`}
            >
              {sources.map((source) => {
                const isRisky = issues.has(source.toLowerCase()) || issues.has(source);
                const isIgnored = ignored.has(source);
                return (
                  <li
                    key={source}
                    className={cn(
                      'flex flex-wrap items-start justify-end gap-x-2 gap-y-1 rounded-md px-2.5 py-1.5',
                      isRisky ? 'bg-amber-50 ring-1 ring-amber-200' : 'bg-slate-50',
                    )}
                  >
                    <code
                      className={cn(
                        'min-w-0 flex-[1_1_13rem] font-mono text-[13px] [overflow-wrap:anywhere]',
                        isRisky ? 'text-amber-900' : 'text-foreground',
                        isIgnored && 'text-muted-foreground',
                      )}
                    >
                      {source}
                    </code>
                    <span className="flex shrink-0 items-center gap-1.5">
                      {isRisky ? <Badge variant="warning">security risk</Badge> : null}
                      {isIgnored ? (
                        <Badge
                          variant="outline"
                          title="Ignored by current browsers (a nonce, hash or 'strict-dynamic' in this directive overrides it): kept as a fallback for older ones, so it is not a risk"
                        >
                          fallback
                        </Badge>
                      ) : null}
                      <span className="text-[11px] font-medium tracking-wide text-slate-600 uppercase">
                        {sourceKind(source)}
                      </span>
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      ) : null}
    </div>
  );
}
