// What changed in one compared run, in full: scripts added, changed (old → new digest) and removed; the
// policy diff per directive (the allowed origins are part of it); security headers added, removed or changed
// with the pages that serve the change; and the drift from the saved policy per served variant. A run whose
// lists were cut to fit storage says so (its counts stay whole).
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import type { ChangedRun } from '../api/get-changes';
import { CHANGE_LABELS, DRIFT_LABELS } from '../utils/labels';
import { DetailsSection, DirectiveDiffList, PageList, ScriptChange } from './change-lists';

export function RunDetails({ run }: { run: ChangedRun }) {
  const c = run.changes;
  const drift = run.drift;
  const nothing =
    !c ||
    (c.scripts.added.length === 0 &&
      c.scripts.changed.length === 0 &&
      c.scripts.removed.length === 0 &&
      c.policy.length === 0 &&
      c.headers.length === 0);
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="run-details">
      {run.truncated ? (
        <Alert tone="info">This run changed too much to keep every detail: the lists below are cut.</Alert>
      ) : null}
      {nothing && !drift ? (
        <p className="text-sm text-muted-foreground">Nothing changed since the run before.</p>
      ) : null}
      {c && c.scripts.added.length > 0 ? (
        <DetailsSection title="Scripts added">
          <ul className="flex flex-col gap-2">
            {c.scripts.added.map((s) => (
              <ScriptChange key={s.key} script={s} />
            ))}
          </ul>
        </DetailsSection>
      ) : null}
      {c && c.scripts.changed.length > 0 ? (
        <DetailsSection title="Scripts changed">
          <ul className="flex flex-col gap-2">
            {c.scripts.changed.map((s) => (
              <ScriptChange key={s.after.key} script={s.after} before={s.before} />
            ))}
          </ul>
        </DetailsSection>
      ) : null}
      {c && c.scripts.removed.length > 0 ? (
        <DetailsSection title="Scripts removed">
          <ul className="flex flex-col gap-2">
            {c.scripts.removed.map((s) => (
              <ScriptChange key={s.key} script={s} />
            ))}
          </ul>
        </DetailsSection>
      ) : null}
      {c && c.policy.length > 0 ? (
        <DetailsSection title="Policy changes">
          <DirectiveDiffList diffs={c.policy} />
        </DetailsSection>
      ) : null}
      {c && c.headers.length > 0 ? (
        <DetailsSection title="Header changes">
          <ul className="flex flex-col gap-2">
            {c.headers.map((h) => (
              <li
                key={JSON.stringify([h.header, h.before, h.after])}
                className="flex min-w-0 flex-col gap-1 rounded-md border border-border p-2"
                data-testid="header-change"
              >
                <div className="flex flex-wrap items-center gap-1.5">
                  <span className="break-all font-mono text-xs font-semibold sm:text-sm">{h.header}</span>
                  <Badge variant={CHANGE_LABELS[h.change].variant}>{CHANGE_LABELS[h.change].label}</Badge>
                </div>
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
                  <dt className="text-muted-foreground">Before</dt>
                  <dd className="break-all font-mono">{h.before ?? 'not served'}</dd>
                  <dt className="text-muted-foreground">After</dt>
                  <dd className="break-all font-mono">{h.after ?? 'not served'}</dd>
                </dl>
                <PageList pages={h.pages} />
              </li>
            ))}
          </ul>
        </DetailsSection>
      ) : null}
      {drift ? (
        <DetailsSection title="Drift">
          <div className="flex flex-col gap-2" data-testid="drift-details">
            <div className="flex flex-wrap items-center gap-1.5">
              <Badge variant={DRIFT_LABELS[drift.state].variant}>{DRIFT_LABELS[drift.state].label}</Badge>
              <span className="break-all font-mono text-xs">{drift.header}</span>
            </div>
            <p className="text-xs text-muted-foreground">{DRIFT_LABELS[drift.state].explained}</p>
            {drift.variants.length > 0 ? (
              <ul className="flex flex-col gap-2">
                {drift.variants.map((v) => (
                  <li
                    key={v.served ?? ''}
                    className="flex min-w-0 flex-col gap-1 rounded-md border border-border p-2"
                    data-testid="drift-variant"
                  >
                    <p className="break-all font-mono text-xs">
                      {v.served === null ? 'No policy served' : `Served: ${v.served}`}
                    </p>
                    <PageList pages={v.pages} />
                    {v.differences.length > 0 ? <DirectiveDiffList diffs={v.differences} /> : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </DetailsSection>
      ) : null}
    </div>
  );
}
