// How the configured policy is delivered: report-uri on or off, enforced or report-only (this policy, or the
// spec's minimal discovery policy), the server it goes to, the nonce option, and the integrity options.
import { type ComposedPolicy, ROLLOUT_HINTS, rolloutOf } from '@csp/shared/configurations/compose';
import type { ServerType } from '@csp/shared/schemas/configuration';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Switch } from '@/components/ui/switch';
import type { EditorState } from '../utils/editor-state';
import { IntegrityOptions } from './integrity-options';

type Rollout = ComposedPolicy['rollout'];

const ROLLOUTS: ReadonlyArray<{ value: Rollout; label: string }> = [
  { value: 'enforce', label: 'Enforce' },
  { value: 'report-only', label: 'Report-only' },
  { value: 'discovery', label: 'Discovery' },
];

const SERVERS: ReadonlyArray<{ value: ServerType; label: string }> = [
  { value: 'apache', label: 'Apache' },
  { value: 'nginx', label: 'Nginx' },
  { value: 'iis', label: 'IIS' },
];

function OptionRow({
  title,
  hint,
  control,
}: {
  title: string;
  hint: React.ReactNode;
  control: React.ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="flex min-w-0 flex-col gap-0.5">
        <span className="text-sm font-medium text-foreground">{title}</span>
        <span className="text-xs text-muted-foreground">{hint}</span>
      </div>
      <div className="shrink-0">{control}</div>
    </div>
  );
}

export function DeploymentOptions({
  state,
  reportEndpoint,
  offeredNames = [],
  onChange,
}: {
  state: EditorState;
  reportEndpoint: string | null;
  /** Trusted Types policy names the base analysis's crawl saw created. */
  offeredNames?: string[];
  onChange: (patch: Partial<EditorState>) => void;
}) {
  const rollout = rolloutOf(state);
  return (
    <section
      aria-labelledby="deployment-heading"
      className="flex flex-col gap-4"
      data-testid="deployment-options"
    >
      <h3 id="deployment-heading" className="text-sm font-semibold text-foreground">
        Deployment
      </h3>
      <div className="flex flex-col gap-2">
        <SegmentedControl
          label="Mode"
          value={rollout}
          onValueChange={(v) =>
            onChange({ reportOnlyMode: v === 'discovery', reportOnlyPolicy: v === 'report-only' })
          }
          options={ROLLOUTS}
          className="self-start"
        />
        <p className="text-xs text-muted-foreground" data-testid="rollout-hint">
          {ROLLOUT_HINTS[rollout]}
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium text-foreground">Server</span>
        <SegmentedControl
          label="Server type"
          value={state.serverType}
          onValueChange={(serverType) => onChange({ serverType })}
          options={SERVERS}
          className="self-start"
        />
      </div>
      <OptionRow
        title="Include report-uri"
        hint={
          reportEndpoint ? (
            <>
              Browsers report violations to{' '}
              <span className="font-mono [overflow-wrap:anywhere]">{reportEndpoint}</span>
            </>
          ) : (
            'Browsers report violations to this product.'
          )
        }
        control={
          <Switch
            checked={state.includeReportUri}
            onCheckedChange={(includeReportUri) => onChange({ includeReportUri })}
            aria-label="Include report-uri"
            data-testid="include-report-uri"
          />
        }
      />
      <OptionRow
        title="Nonce"
        hint={
          <>
            Adds <span className="font-mono">'nonce-…'</span> to script-src and style-src. Your server must
            put the same value on every {'<script>'} and {'<style>'} tag, new for every response: the Nginx
            export does that with $request_id.
            {state.includeNonce ? (
              <span
                className="mt-1 block font-mono text-[11px] [overflow-wrap:anywhere] text-foreground"
                data-testid="nonce-value"
              >
                {state.nonce}
              </span>
            ) : null}
          </>
        }
        control={
          <Switch
            checked={state.includeNonce}
            onCheckedChange={(includeNonce) => onChange({ includeNonce })}
            aria-label="Add a nonce"
            data-testid="include-nonce"
          />
        }
      />
      <IntegrityOptions
        state={state}
        reporting={state.includeReportUri && Boolean(reportEndpoint)}
        endpointKnown={Boolean(reportEndpoint)}
        offeredNames={offeredNames}
        onChange={onChange}
      />
    </section>
  );
}
