// The engines a policy is meant for: the first version of Chromium, Firefox and Safari that honours every
// directive and keyword the policy relies on (shared engine table, policy-engines.ts), and the rows that
// set those versions. Older versions still get the fallbacks the generator writes, or lose only what the
// named rows say.
import { policyEngines, protectionsUsed } from '@csp/shared/csp/engines/policy-engines';
import { ENGINE_NAMES, ENGINE_TABLE, ENGINES, type EngineFeature } from '@csp/shared/csp/engines/table';
import type { CspRules } from '@csp/shared/csp/policy';
import { MonitorSmartphone, ShieldCheck } from 'lucide-react';
import { useMemo } from 'react';
import { Badge } from '@/components/ui/badge';

/** "Chromium 75, Firefox 108, Safari 15.4": where a table row starts to hold. */
function sinceText(feature: EngineFeature): string {
  const since = ENGINE_TABLE[feature].since;
  return ENGINES.map((e) => `${ENGINE_NAMES[e]} ${since[e] ?? '—'}`).join(', ');
}

export function PolicyEnginesLine({ rules }: { rules: CspRules }) {
  const engines = useMemo(() => policyEngines(rules), [rules]);
  const features = [...new Set(engines.flatMap((e) => e.because))] as EngineFeature[];
  return (
    <div
      className="flex flex-col gap-1.5 rounded-lg border border-border bg-slate-50/60 px-3.5 py-2.5 text-sm"
      data-testid="policy-engines"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <span className="flex items-center gap-2 font-medium">
          <MonitorSmartphone className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          Meant for
        </span>
        <ul className="flex flex-wrap items-center gap-1.5" aria-label="Engines and minimum versions">
          {engines.map((e) => (
            <li key={e.engine}>
              <Badge variant="outline" className="tabular-nums" data-engine={e.engine}>
                {e.name} {e.minVersion}+
              </Badge>
            </li>
          ))}
        </ul>
      </div>
      {features.length === 0 ? (
        <p className="text-xs text-muted-foreground" data-testid="policy-engines-why">
          Only directives every browser of the last ten years honours.
        </p>
      ) : (
        <ul className="flex flex-col gap-1 text-xs text-muted-foreground" data-testid="policy-engines-why">
          {features.map((f) => (
            <li key={f} data-feature={f}>
              <span className="font-mono text-foreground">{ENGINE_TABLE[f].title}</span> ({sinceText(f)}):{' '}
              {ENGINE_TABLE[f].note}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The protections a policy and the headers sent with it use that only some engines apply (Trusted Types,
 * 'report-sha256', Integrity-Policy and its reports): where each holds. They never raise "Meant for": an
 * engine without one loads the page as before, unprotected in that respect. Nothing when none is used.
 */
export function PolicyProtectionsLine({
  rules,
  headers = [],
}: {
  rules: CspRules;
  headers?: ReadonlyArray<{ name: string; value: string }>;
}) {
  const features = useMemo(() => protectionsUsed(rules, headers), [rules, headers]);
  if (features.length === 0) return null;
  return (
    <div
      className="flex flex-col gap-1.5 rounded-lg border border-border bg-slate-50/60 px-3.5 py-2.5 text-sm"
      data-testid="policy-protections"
    >
      <span className="flex items-center gap-2 font-medium">
        <ShieldCheck className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        Applied by
      </span>
      <ul className="flex flex-col gap-1 text-xs text-muted-foreground">
        {features.map((f) => (
          <li key={f} data-feature={f}>
            <span className="font-mono text-foreground">{ENGINE_TABLE[f].title}</span> ({sinceText(f)}):{' '}
            {ENGINE_TABLE[f].note}
          </li>
        ))}
      </ul>
    </div>
  );
}
