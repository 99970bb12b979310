// The domain screen's Scripts panel (PCI DSS 6.4.3): every script the crawls saw (and those only visitors'
// reports named), filtered by state, party and "changed in the last run"; the owner selects scripts and
// authorizes them with one justification, and manages URL-pattern rules. A team member reads all of it
// and sees no review control.
import type { InventoryEntry } from '@csp/shared/watch/inventory';
import { FileCode2, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Select } from '@/components/ui/input';
import { LoadingBlock } from '@/components/ui/loading-block';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { countOf, formatDateTime } from '@/lib/format';
import { type ScriptFilters, useScripts } from '../api/get-scripts';
import { useAddScriptRule, useAuthorizeScripts, useDeleteScriptRule } from '../api/review-scripts';
import { PARTY_LABELS } from '../utils/labels';
import { EvidenceDownload } from './evidence-download';
import { AuthorizeDialog, RuleDialog } from './review-dialogs';
import { ScriptRow } from './script-row';

type StateFilter = 'all' | InventoryEntry['state'];
type PartyFilter = 'all' | InventoryEntry['party'];
const STATE_OPTIONS: { value: StateFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'authorized', label: 'Authorized' },
  { value: 'removed', label: 'Removed' },
];

const errorToast = (error: Error) =>
  toast({
    variant: 'destructive',
    title: 'Error',
    description: (error instanceof ApiError && error.serverMessage) || error.message,
  });

export function ScriptsPanel({ domainId, readOnly = false }: { domainId: string; readOnly?: boolean }) {
  const [state, setState] = useState<StateFilter>('all');
  const [party, setParty] = useState<PartyFilter>('all');
  const [changed, setChanged] = useState(false);
  const filters: ScriptFilters = {
    ...(state === 'all' ? {} : { state }),
    ...(party === 'all' ? {} : { party }),
    ...(changed ? { changed: 'true' as const } : {}),
  };
  const scripts = useScripts(domainId, filters);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [authorizing, setAuthorizing] = useState(false);
  const [addingRule, setAddingRule] = useState(false);
  const authorize = useAuthorizeScripts(domainId);
  const addRule = useAddScriptRule(domainId);
  const deleteRule = useDeleteScriptRule(domainId);

  const first = scripts.data?.pages[0];
  const list = scripts.data?.pages.flatMap((p) => p.scripts) ?? [];
  const selectable = list.filter((s) => s.state !== 'removed');
  const chosen = selectable.filter((s) => selected.has(s.key));
  const select = (key: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(key);
    else next.delete(key);
    setSelected(next);
  };
  const filtered = state !== 'all' || party !== 'all' || changed;

  return (
    <Card id="scripts" data-testid="scripts-panel">
      <CardHeader
        actions={
          <div className="flex flex-wrap gap-2">
            <EvidenceDownload domainId={domainId} />
            {readOnly ? null : (
              <Button variant="outline" size="sm" onClick={() => setAddingRule(true)}>
                <Plus aria-hidden="true" />
                Add rule
              </Button>
            )}
          </div>
        }
      >
        <CardTitle>Scripts</CardTitle>
        <CardDescription>
          Every script the crawls of this domain saw, with its content digest and whether it is authorized.
          {first?.lastRunAt ? ` Last run ${formatDateTime(first.lastRunAt)}.` : ''}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <SegmentedControl
            label="State"
            className="h-auto flex-wrap"
            value={state}
            onValueChange={(v) => {
              setState(v);
              setSelected(new Set());
            }}
            options={STATE_OPTIONS.map((o) => ({
              value: o.value,
              label: o.value !== 'all' && first ? `${o.label} ${first.counts[o.value]}` : o.label,
            }))}
          />
          <Select
            aria-label="Party"
            className="h-9 w-auto"
            value={party}
            onChange={(e) => setParty(e.target.value as PartyFilter)}
          >
            <option value="all">Any party</option>
            {(Object.keys(PARTY_LABELS) as InventoryEntry['party'][]).map((p) => (
              <option key={p} value={p}>
                {PARTY_LABELS[p]}
              </option>
            ))}
          </Select>
          <span className="flex items-center gap-2 text-sm">
            <Switch checked={changed} onCheckedChange={setChanged} aria-labelledby="scripts-changed-label" />
            <span id="scripts-changed-label">Changed in last run</span>
          </span>
        </div>

        {!readOnly && selectable.length > 0 ? (
          <div className="flex flex-wrap items-center gap-3 rounded-lg bg-slate-50 px-3 py-2 text-sm">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={chosen.length === selectable.length}
                onChange={(e) => setSelected(new Set(e.target.checked ? selectable.map((s) => s.key) : []))}
              />
              Select all shown
            </label>
            <span className="text-muted-foreground">{countOf(chosen.length, 'script')} selected</span>
            <Button
              size="sm"
              className="ml-auto"
              disabled={chosen.length === 0}
              onClick={() => {
                authorize.reset();
                setAuthorizing(true);
              }}
            >
              Authorize selected
            </Button>
          </div>
        ) : null}

        {scripts.isLoading ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading the scripts...">
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-24 w-full" />
          </LoadingBlock>
        ) : scripts.error || !first ? (
          <Alert tone="error" role="alert">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <span>Failed to fetch the script inventory</span>
              <Button variant="outline" size="sm" onClick={() => void scripts.refetch()}>
                Try again
              </Button>
            </div>
          </Alert>
        ) : list.length === 0 ? (
          <EmptyState
            icon={FileCode2}
            title={filtered ? 'No script matches these filters' : 'No scripts yet'}
            description={
              filtered
                ? 'Change the filters to see the other scripts.'
                : 'The inventory fills in when an analysis of this domain completes.'
            }
          />
        ) : (
          <>
            <p className="text-sm text-muted-foreground" data-testid="scripts-total">
              {countOf(first.total, 'script')}
              {filtered ? ' match' : ''}
            </p>
            <ul className="flex flex-col gap-2">
              {list.map((s) => (
                <ScriptRow
                  key={s.key}
                  domainId={domainId}
                  script={s}
                  selected={selected.has(s.key)}
                  onSelectedChange={readOnly || s.state === 'removed' ? undefined : (on) => select(s.key, on)}
                />
              ))}
            </ul>
            {scripts.hasNextPage ? (
              <Button
                variant="outline"
                size="sm"
                className="self-center"
                loading={scripts.isFetchingNextPage}
                onClick={() => void scripts.fetchNextPage()}
              >
                Load more
              </Button>
            ) : null}
          </>
        )}

        {first && first.rules.length > 0 ? (
          <section className="flex flex-col gap-2" aria-labelledby="script-rules-title">
            <h3 id="script-rules-title" className="text-sm font-semibold">
              Authorization rules
            </h3>
            <ul className="flex flex-col gap-2">
              {first.rules.map((r) => (
                <li
                  key={r.id}
                  className="flex items-start gap-3 rounded-lg border border-border p-3 text-sm"
                  data-testid="script-rule"
                >
                  <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                    <p className="break-all font-mono text-xs sm:text-sm">{r.pattern}</p>
                    <p className="whitespace-pre-wrap">“{r.justification}”</p>
                    <p className="text-xs text-muted-foreground">
                      {formatDateTime(r.at)} ·{' '}
                      {r.anyContent ? 'any content' : 'new URLs inherit it; changed content needs review'}
                    </p>
                  </div>
                  {readOnly ? null : (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Delete the rule ${r.pattern}`}
                      loading={deleteRule.isPending && deleteRule.variables === r.id}
                      onClick={() => deleteRule.mutate(r.id, { onError: errorToast })}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </CardContent>

      {readOnly ? null : (
        <>
          <AuthorizeDialog
            key={authorizing ? 'open' : 'closed'}
            open={authorizing}
            onOpenChange={(next) => {
              if (!authorize.isPending) setAuthorizing(next);
            }}
            count={chosen.length}
            pending={authorize.isPending}
            error={authorize.error}
            onSubmit={(input) =>
              authorize.mutate(
                { keys: chosen.map((s) => s.key), ...input },
                {
                  onSuccess: (result) => {
                    setAuthorizing(false);
                    setSelected(new Set());
                    toast({
                      title: 'Success',
                      description: `${countOf(result.authorized, 'script')} authorized`,
                    });
                  },
                },
              )
            }
          />
          <RuleDialog
            key={addingRule ? 'rule-open' : 'rule-closed'}
            open={addingRule}
            onOpenChange={(next) => {
              if (!addRule.isPending) setAddingRule(next);
            }}
            pending={addRule.isPending}
            error={addRule.error}
            onSubmit={(input) =>
              addRule.mutate(input, {
                onSuccess: (result) => {
                  setAddingRule(false);
                  addRule.reset();
                  const n = result.authorized;
                  toast({
                    title: 'Success',
                    description: `Rule added${n > 0 ? `; ${countOf(n, 'script')} authorized by it` : ''}`,
                  });
                },
              })
            }
          />
        </>
      )}
    </Card>
  );
}
