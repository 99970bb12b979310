// The pieces a run's details are made of: a policy diff per directive (+ added, − removed sources), a list
// of pages cut after the first few, and one script with its party, initiator and digest (whole: an auditor
// compares it with the file's Subresource Integrity value).
import type { DirectiveDiff } from '@csp/shared/watch/policy-diff';
import type { WatchedScript } from '@csp/shared/watch/snapshot';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { countOf } from '@/lib/format';
import { CHANGE_LABELS, PAGES_SHOWN, PARTY_LABELS, scriptName } from '../utils/labels';

export function DetailsSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex min-w-0 flex-col gap-2">
      <h4 className="text-sm font-semibold">{title}</h4>
      {children}
    </section>
  );
}

export function DirectiveDiffList({ diffs }: { diffs: DirectiveDiff[] }) {
  return (
    <ul className="flex flex-col gap-2">
      {diffs.map((d) => (
        <li
          key={d.directive}
          className="flex min-w-0 flex-col gap-1 rounded-md border border-border p-2"
          data-testid="directive-diff"
        >
          <div className="flex flex-wrap items-center gap-1.5">
            <span className="break-all font-mono text-xs font-semibold sm:text-sm">{d.directive}</span>
            <Badge variant={CHANGE_LABELS[d.change].variant}>{CHANGE_LABELS[d.change].label}</Badge>
          </div>
          <ul className="flex flex-col font-mono text-xs">
            {d.added.map((s) => (
              <li key={`+${s}`} className="break-all text-emerald-700">
                <span aria-hidden="true">+ </span>
                <span className="sr-only">added </span>
                {s}
              </li>
            ))}
            {d.removed.map((s) => (
              <li key={`-${s}`} className="break-all text-red-700">
                <span aria-hidden="true">− </span>
                <span className="sr-only">removed </span>
                {s}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

/** "3 pages: /a, /b, /c and 297 more" — the count whole, the first few named. */
export function PageList({ pages, total = pages.length }: { pages: string[]; total?: number }) {
  const shown = pages.slice(0, PAGES_SHOWN);
  const more = total - shown.length;
  return (
    <p className="min-w-0 text-xs text-muted-foreground">
      {countOf(total, 'page')}
      {shown.length > 0 ? ': ' : ''}
      {shown.map((p, i) => (
        <span key={p}>
          {i > 0 ? ', ' : ''}
          <span className="break-all">{p}</span>
        </span>
      ))}
      {more > 0 ? ` and ${more} more` : ''}
    </p>
  );
}

export function ScriptChange({ script, before }: { script: WatchedScript; before?: WatchedScript }) {
  return (
    <li
      className="flex min-w-0 flex-col gap-1 rounded-md border border-border p-2"
      data-testid="changed-script"
    >
      <p className="break-all font-mono text-xs sm:text-sm">{scriptName(script)}</p>
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge variant={script.party === 'first' ? 'secondary' : 'info'}>{PARTY_LABELS[script.party]}</Badge>
        {script.initiator ? (
          <span className="min-w-0 break-all text-xs text-muted-foreground">
            Loaded by {script.initiator}
          </span>
        ) : null}
      </div>
      <p className="break-all font-mono text-xs text-muted-foreground">
        {before ? (
          <>
            {before.digest}
            <span aria-hidden="true"> → </span>
            <span className="sr-only"> became </span>
            <span className="text-foreground">{script.digest}</span>
          </>
        ) : (
          script.digest
        )}
      </p>
      <PageList pages={script.pages} total={script.pageCount} />
    </li>
  );
}
