// The integrity options of a configuration (deployment section): Integrity-Policy off / report-only /
// enforce, 'report-sha256' (needs reporting, so it is off and says why without it), and Trusted Types off /
// report-only / enforce with the `trusted-types` names, pre-filled from what the base analysis's crawl saw
// created. Each with a one-line hint; what they add to the headers shows in the composed policy.
import { INTEGRITY_HINTS } from '@csp/shared/configurations/compose';
import type { IntegrityPolicyMode } from '@csp/shared/csp/integrity-policy';
import { type TrustedTypesMode, trustedTypesPoliciesSchema } from '@csp/shared/csp/trusted-types-names';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Switch } from '@/components/ui/switch';
import { type EditorState, policyNamesOf } from '../utils/editor-state';

const MODES: ReadonlyArray<{ value: IntegrityPolicyMode & TrustedTypesMode; label: string }> = [
  { value: 'off', label: 'Off' },
  { value: 'report-only', label: 'Report-only' },
  { value: 'enforce', label: 'Enforce' },
];

function ModeRow({
  title,
  hint,
  testId,
  value,
  onChange,
}: {
  title: string;
  hint: string;
  testId: string;
  value: IntegrityPolicyMode;
  onChange: (mode: IntegrityPolicyMode) => void;
}) {
  return (
    <div className="flex flex-col gap-2" data-testid={testId}>
      <span className="text-sm font-medium text-foreground">{title}</span>
      <SegmentedControl
        label={title}
        value={value}
        onValueChange={onChange}
        options={MODES}
        className="self-start"
      />
      <p className="text-xs text-muted-foreground">{hint}</p>
    </div>
  );
}

export function IntegrityOptions({
  state,
  reporting,
  endpointKnown,
  offeredNames,
  onChange,
}: {
  state: EditorState;
  /** The policy reports through report-to (report-uri on and an endpoint known). */
  reporting: boolean;
  /** The product's report address is known (it comes with the configurations list). */
  endpointKnown: boolean;
  /** Trusted Types policy names the base analysis's crawl saw created. */
  offeredNames: string[];
  onChange: (patch: Partial<EditorState>) => void;
}) {
  const names = trustedTypesPoliciesSchema.safeParse(policyNamesOf(state.trustedTypesNames));
  const namesError = names.success ? undefined : names.error.issues[0]?.message;

  function setTrustedTypes(trustedTypes: TrustedTypesMode) {
    // Turned on with no names typed yet: start from the ones the crawl saw created.
    const prefill =
      state.trustedTypes === 'off' && !state.trustedTypesNames.trim() && offeredNames.length > 0;
    onChange(prefill ? { trustedTypes, trustedTypesNames: offeredNames.join(' ') } : { trustedTypes });
  }

  return (
    <div className="flex flex-col gap-4" data-testid="integrity-options">
      <ModeRow
        title="Integrity-Policy"
        hint={INTEGRITY_HINTS.integrityPolicy}
        testId="integrity-policy"
        value={state.integrityPolicy}
        onChange={(integrityPolicy) => onChange({ integrityPolicy })}
      />
      <div className="flex items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-0.5">
          <span className="text-sm font-medium text-foreground">
            Report script hashes from visitors' browsers
          </span>
          <span className="text-xs text-muted-foreground" data-testid="report-sha256-hint">
            {reporting
              ? INTEGRITY_HINTS.reportSha256
              : state.includeReportUri && !endpointKnown
                ? "Available once the product's report address is loaded (it comes with the configurations)."
                : "Needs reporting: turn on 'Include report-uri' first (hashes arrive as Reporting API reports)."}
          </span>
        </div>
        <Switch
          checked={state.reportSha256 && reporting}
          disabled={!reporting}
          onCheckedChange={(reportSha256) => onChange({ reportSha256 })}
          aria-label="Report script hashes from visitors' browsers"
          data-testid="report-sha256"
        />
      </div>
      <ModeRow
        title="Trusted Types"
        hint={INTEGRITY_HINTS.trustedTypes}
        testId="trusted-types"
        value={state.trustedTypes}
        onChange={setTrustedTypes}
      />
      {state.trustedTypes !== 'off' ? (
        <Field
          id="trusted-types-names"
          label="Policy names"
          error={namesError}
          hint={
            offeredNames.length > 0
              ? `Names your code passes to trustedTypes.createPolicy; the crawl saw ${offeredNames.join(', ')}. Empty: any name.`
              : 'Names your code passes to trustedTypes.createPolicy, separated by spaces. Empty: any name.'
          }
        >
          <Input
            value={state.trustedTypesNames}
            onChange={(e) => onChange({ trustedTypesNames: e.target.value })}
            placeholder="dompurify my-app"
            autoCapitalize="none"
            spellCheck={false}
            className="font-mono"
            data-testid="trusted-types-names"
          />
        </Field>
      ) : null}
    </div>
  );
}
