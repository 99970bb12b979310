// One script of the inventory: what it is (URL or kind), who serves it, its state, content digest, pages,
// initiator and first/last seen; "Details" opens its pages, authorization and history. The owner gets a
// checkbox to select it for bulk authorization (never on a removed script, which cannot be authorized).
import type { ScriptView } from '@csp/shared/schemas/script-inventory';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import { countOf, formatDateTime } from '@/lib/format';
import { useScriptHistory } from '../api/get-script-history';
import { EVENT_LABELS, PARTY_LABELS, STATE_LABELS, scriptName, shortDigest } from '../utils/labels';
import { FieldDigests } from './field-digests';
import { SriCell } from './sri-cell';

export function ScriptRow({
  domainId,
  script,
  selected,
  onSelectedChange,
}: {
  domainId: string;
  script: ScriptView;
  /** Absent for a reader who cannot authorize (a team member), and for a removed script. */
  selected?: boolean;
  onSelectedChange?: ((selected: boolean) => void) | undefined;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const state = STATE_LABELS[script.state];
  const name = scriptName(script);
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-border bg-white p-3"
      data-testid="script-row"
      data-state={script.state}
    >
      <div className="flex items-start gap-3">
        {onSelectedChange ? (
          <input
            type="checkbox"
            className="mt-1 size-4 shrink-0 accent-primary"
            checked={selected ?? false}
            onChange={(e) => onSelectedChange(e.target.checked)}
            aria-label={`Select ${name}`}
          />
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <p className="break-all font-mono text-xs sm:text-sm">{name}</p>
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge variant={state.variant}>{state.label}</Badge>
            <Badge variant={script.party === 'first' ? 'secondary' : 'info'}>
              {PARTY_LABELS[script.party]}
            </Badge>
            {script.changedInLastRun ? <Badge variant="purple">Changed in last run</Badge> : null}
            {script.seenBy === 'field' ? (
              <Badge variant="outline" title="Visitors' reports show it; no crawl has seen it yet">
                Reported by visitors only
              </Badge>
            ) : null}
          </div>
          <SriCell script={script} />
          <dl className="grid grid-cols-1 gap-x-4 gap-y-0.5 text-xs text-muted-foreground sm:grid-cols-2">
            <Fact label="Digest" title={script.digest ?? undefined} mono>
              {shortDigest(script.digest)}
            </Fact>
            <Fact label="Pages">{countOf(script.pageCount, 'page')}</Fact>
            <Fact label="First seen">{formatDateTime(script.firstSeen)}</Fact>
            <Fact label="Last seen">{formatDateTime(script.lastSeen)}</Fact>
            {script.initiator ? (
              <Fact label="Loaded by" mono wide>
                {script.initiator}
              </Fact>
            ) : null}
          </dl>
          <FieldDigests domainId={domainId} scriptKey={script.key} />
        </div>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
        >
          {open ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
          Details
        </Button>
      </div>
      {open ? (
        <div id={detailsId} className="flex flex-col gap-3 border-t border-border pt-3 text-sm">
          <Authorization script={script} />
          {script.pages.length > 0 ? (
            <section className="flex flex-col gap-1">
              <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">Pages</h4>
              <ul className="flex flex-col gap-0.5 font-mono text-xs">
                {script.pages.map((p) => (
                  <li key={p} className="break-all">
                    {p}
                  </li>
                ))}
              </ul>
              {script.pageCount > script.pages.length ? (
                <p className="text-xs text-muted-foreground">
                  and {countOf(script.pageCount - script.pages.length, 'more page')}
                </p>
              ) : null}
            </section>
          ) : null}
          <History domainId={domainId} scriptKey={script.key} />
        </div>
      ) : null}
    </li>
  );
}

/** One fact of the row: label and value flow as text, so a narrow screen wraps them like a sentence. */
function Fact({
  label,
  title,
  mono = false,
  wide = false,
  children,
}: {
  label: string;
  title?: string | undefined;
  mono?: boolean;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={cn('min-w-0', wide && 'sm:col-span-2')}>
      <dt className="inline">{label}: </dt>
      <dd className={cn('inline', mono && 'break-all font-mono')} title={title}>
        {children}
      </dd>
    </div>
  );
}

function Authorization({ script }: { script: ScriptView }) {
  const a = script.authorization;
  if (!a) return <p className="text-muted-foreground">Never authorized.</p>;
  const current = a.anyContent || a.digest === script.digest;
  return (
    <section className="flex flex-col gap-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        {script.state === 'authorized' ? 'Authorization' : 'Last authorization'}
      </h4>
      <p className="whitespace-pre-wrap">“{a.justification}”</p>
      <p className="text-xs text-muted-foreground">
        {formatDateTime(a.at)}
        {a.ruleId ? ' · by a URL rule' : ''}
        {a.anyContent ? ' · any content' : ` · content ${shortDigest(a.digest)}`}
      </p>
      {!current && script.state === 'pending' ? (
        <Alert tone="warning">
          The content changed since it was authorized: review the new content and authorize it again.
        </Alert>
      ) : null}
    </section>
  );
}

function History({ domainId, scriptKey }: { domainId: string; scriptKey: string }) {
  const history = useScriptHistory(domainId, scriptKey);
  return (
    <section className="flex flex-col gap-1" data-testid="script-history">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">History</h4>
      {history.isLoading ? (
        <LoadingBlock label="Loading the history...">
          <Skeleton className="h-12 w-full" />
        </LoadingBlock>
      ) : history.error ? (
        <Alert tone="error" role="alert">
          The history could not be loaded.
        </Alert>
      ) : (
        <ol className="flex flex-col gap-1.5">
          {(history.data ?? []).map((row) => (
            <li key={row.id} className="flex flex-col text-xs">
              <span>
                <span className="font-medium">{EVENT_LABELS[row.type]}</span>{' '}
                <span className="text-muted-foreground">{formatDateTime(row.at)}</span>
                {row.byName ? <span className="text-muted-foreground"> · by {row.byName}</span> : null}
              </span>
              {row.justification ? <span className="whitespace-pre-wrap">“{row.justification}”</span> : null}
              {row.type === 'content-changed' ? (
                <span className="font-mono text-muted-foreground">
                  {shortDigest(row.before)} → {shortDigest(row.digest)}
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
