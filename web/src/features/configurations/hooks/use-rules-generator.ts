// The rules generator's state (spec sections 2, 4, 5 and 8): the saved configurations and the one being
// edited, the policy composed from it and its audit, whether it differs from what was saved, the field
// errors, and the actions New, Select, Save, Delete and choosing the base analysis, with their toasts.
// It opens on the configuration saved last, and a switch that would drop unsaved changes waits for a yes.
import { composePolicy } from '@csp/shared/configurations/compose';
import { siteFacts } from '@csp/shared/configurations/site-facts';
import { offeredPolicyNames } from '@csp/shared/csp/trusted-types-names';
import type { Analysis } from '@csp/shared/schemas/analysis';
import type { Configuration } from '@csp/shared/schemas/configuration';
import { useEffect, useMemo, useState } from 'react';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { useConfigurations } from '../api/get-configurations';
import { useDeleteConfiguration, useSaveConfiguration } from '../api/save-configuration';
import {
  blankState,
  bodyOf,
  type EditorState,
  isDirty,
  openingConfiguration,
  stateOf,
} from '../utils/editor-state';
import { usePolicyAudit } from './use-policy-audit';

const errorText = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? error.message)
    : error instanceof Error
      ? error.message
      : '';

/** A saved configuration with no base analysis (it was deleted) cannot be saved again until it has one. */
const baseErrorOf = (c: Configuration) => (c.baseAnalysisId ? undefined : 'Please select a base analysis');

/** A new configuration's start: the latest completed analysis, as the base and its rules. */
const startFrom = (latest: Analysis) => ({ baseAnalysisId: latest.id, cspRules: latest.cspRules ?? {} });

/**
 * The view the panel opens on with the configurations and analyses in hand (see the set-while-rendering
 * below for the same rule when they come later): the configuration saved last, else a new one started from
 * the latest completed analysis; undefined when there is neither (a blank editor).
 */
function openingView(
  configurations: Configuration[],
  latest: Analysis | undefined,
): { state: EditorState; baseError?: string } | undefined {
  const initial = openingConfiguration(configurations);
  if (initial) return { state: stateOf(initial), baseError: baseErrorOf(initial) };
  if (configurations.length === 0 && latest) return { state: { ...blankState(), ...startFrom(latest) } };
  return undefined;
}

/** Where a switch goes: a saved configuration's id, or null for New. */
type SwitchTarget = string | null;

/** readOnly: a team member, who can try changes but save none, so nothing of theirs is guarded. */
export function useRulesGenerator(domainId: string, analyses: Analysis[], readOnly = false) {
  const list = useConfigurations(domainId);
  const save = useSaveConfiguration(domainId);
  const remove = useDeleteConfiguration(domainId);
  // Spec: only completed analyses can be the base.
  const completed = useMemo(() => analyses.filter((a) => a.status === 'completed' && a.cspRules), [analyses]);
  // What the panel opens on, when the configurations are in as it mounts (the domain screen reads them
  // before the panel renders): its first render is its only one, with no state set while rendering.
  const [first] = useState(() =>
    list.data ? openingView(list.data.configurations, completed[0]) : undefined,
  );
  const [state, setState] = useState<EditorState>(() => first?.state ?? blankState());
  // What "no unsaved changes" means: the configuration as opened or saved, or a new one as it started.
  const [reference, setReference] = useState<EditorState>(state);
  // A switch held until the user agrees to drop their changes.
  const [pendingSwitch, setPendingSwitch] = useState<{ to: SwitchTarget } | null>(null);
  const [nameTouched, setNameTouched] = useState(false);
  const [baseError, setBaseError] = useState<string | undefined>(first?.baseError);

  const configurations = list.data?.configurations ?? [];
  const loaded = configurations.find((c) => c.id === state.selectedId);
  const endpoint = list.data?.reportEndpoint || null;
  const body = useMemo(() => bodyOf(state), [state]);
  const composed = useMemo(() => composePolicy(body, endpoint), [body, endpoint]);
  const base = completed.find((a) => a.id === state.baseAnalysisId);
  const withoutIntegrity = list.data?.scriptsWithoutIntegrity;
  // Whether there is a policy to show: rules (from a base analysis or a configuration) or report-only mode.
  const showsPolicy = !list.isLoading && (Object.keys(state.cspRules).length > 0 || state.reportOnlyMode);
  // The same facts the API audits a saved configuration with (the inventory's count, the base's dry run).
  const toAudit = useMemo(
    () => (showsPolicy ? { composed, facts: siteFacts(withoutIntegrity, base?.trustedTypes) } : null),
    [showsPolicy, composed, withoutIntegrity, base?.trustedTypes],
  );
  // The policy view shows a composed policy with its audit, worked out in a worker (some 100 ms on a phone).
  const audited = usePolicyAudit(toAudit);
  const offeredNames = useMemo(
    () => offeredPolicyNames(base?.trustedTypes?.policyNames),
    [base?.trustedTypes],
  );
  const dirty = isDirty(state, reference);
  const guarded = dirty && !readOnly;

  useEffect(() => {
    if (list.error) {
      toast({
        variant: 'destructive',
        title: 'Failed to fetch CSP configurations',
        description: errorText(list.error),
      });
    }
  }, [list.error]);

  /** Shows a configuration (or a new one) as it is saved: no unsaved changes. */
  function open(next: EditorState) {
    setState(next);
    setReference(next);
    setNameTouched(false);
  }

  // A return visit opens the configuration saved last, as saved. A first visit starts from the latest
  // completed analysis, so the panel shows a policy at once; New clears every field, as the spec says. When
  // the configurations or the analyses come after the mount: set while rendering, so the panel never flashes
  // an empty editor, and commits once.
  const [opened, setOpened] = useState(first !== undefined);
  if (!opened && !list.isLoading) {
    const initial = openingConfiguration(configurations);
    const latest = completed[0];
    if (initial) {
      setOpened(true);
      open(stateOf(initial));
      setBaseError(baseErrorOf(initial));
    } else if (configurations.length === 0 && !state.selectedId && !state.baseAnalysisId && latest) {
      setOpened(true);
      // Edits made while the analyses loaded stay unsaved changes; the base alone is not one.
      const start = startFrom(latest);
      setState((s) => ({ ...s, ...start }));
      setReference((r) => ({ ...r, ...start }));
    }
  }

  useEffect(() => {
    if (!guarded) setPendingSwitch(null);
  }, [guarded]);

  const patch = (p: Partial<EditorState>) => setState((s) => ({ ...s, ...p }));

  function chooseBase(id: string) {
    const analysis = completed.find((a) => a.id === id);
    setBaseError(undefined);
    patch({
      baseAnalysisId: id,
      cspRules: analysis?.cspRules ?? (id === state.baseAnalysisId ? state.cspRules : {}),
    });
  }

  function newConfiguration() {
    setOpened(true);
    open(blankState());
    setBaseError(undefined);
  }

  function selectConfiguration(id: string) {
    const c = configurations.find((x) => x.id === id);
    if (!c) return;
    setOpened(true);
    open(stateOf(c));
    setBaseError(baseErrorOf(c));
  }

  function switchTo(to: SwitchTarget) {
    setPendingSwitch(null);
    if (to === null) newConfiguration();
    else selectConfiguration(to);
  }

  /** New or another saved configuration: at once, or after a yes when it would drop unsaved changes. */
  function requestSwitch(to: SwitchTarget) {
    if (to === state.selectedId && to !== null) return;
    if (guarded) setPendingSwitch({ to });
    else switchTo(to);
  }

  function onSave() {
    setNameTouched(true);
    if (!body.name) {
      toast({ variant: 'destructive', title: 'Please enter a configuration name' });
      return;
    }
    if (!body.baseAnalysisId) {
      setBaseError('Please select a base analysis');
      toast({ variant: 'destructive', title: 'Please select a base analysis' });
      return;
    }
    save.mutate(
      { id: state.selectedId, body },
      {
        onSuccess: (saved: Configuration) => {
          open(stateOf(saved, state.nonce));
          toast({ title: 'Configuration saved successfully' });
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Failed to save configuration',
            description: errorText(error),
          }),
      },
    );
  }

  async function onDelete() {
    if (!state.selectedId) return;
    try {
      await remove.mutateAsync(state.selectedId);
      newConfiguration();
      toast({ title: 'Configuration deleted successfully' });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Failed to delete configuration',
        description: errorText(error),
      });
    }
  }

  const nameError = nameTouched && !state.name.trim() ? 'Please enter a configuration name' : undefined;
  // A loaded configuration whose base analysis was deleted keeps its rules; it needs a new base to be saved.
  const baseMissing = Boolean(state.baseAnalysisId) && !completed.some((a) => a.id === state.baseAnalysisId);

  return {
    isLoading: list.isLoading,
    state,
    patch,
    completed,
    configurations,
    loaded,
    endpoint,
    composed,
    showsPolicy,
    audited,
    /** Trusted Types policy names the base analysis's crawl saw created (offered when they are turned on). */
    offeredNames,
    dirty,
    /** Unsaved changes the user could save: leaving or switching asks first. */
    guarded,
    saving: save.isPending,
    deleting: remove.isPending,
    nameError,
    baseError: baseError ?? (baseMissing ? 'Please select a base analysis' : undefined),
    baseMissing,
    touchName: () => setNameTouched(true),
    chooseBase,
    onNew: () => requestSwitch(null),
    onSelect: (id: string) => requestSwitch(id),
    /** The switch waiting for a yes, if any; confirm it or keep editing. */
    pendingSwitch: pendingSwitch !== null,
    confirmSwitch: () => {
      if (pendingSwitch) switchTo(pendingSwitch.to);
    },
    cancelSwitch: () => setPendingSwitch(null),
    onSave,
    onDelete,
  };
}
