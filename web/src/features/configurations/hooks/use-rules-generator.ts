// The rules generator's state (spec sections 2, 4, 5 and 8): the saved configurations and the one being
// edited, the policy composed from it and its audit, whether it differs from what was saved, the field
// errors, and the actions New, Select, Save, Delete and choosing the base analysis, with their toasts.
import { auditComposed, composePolicy } from '@csp/shared/configurations/compose';
import type { Analysis } from '@csp/shared/schemas/analysis';
import type { Configuration } from '@csp/shared/schemas/configuration';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { useConfigurations } from '../api/get-configurations';
import { useDeleteConfiguration, useSaveConfiguration } from '../api/save-configuration';
import { blankState, bodyOf, type EditorState, isDirty, stateOf } from '../utils/editor-state';

const errorText = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? error.message)
    : error instanceof Error
      ? error.message
      : '';

export function useRulesGenerator(domainId: string, analyses: Analysis[]) {
  const list = useConfigurations(domainId);
  const save = useSaveConfiguration(domainId);
  const remove = useDeleteConfiguration(domainId);
  const [state, setState] = useState<EditorState>(() => blankState());
  const [nameTouched, setNameTouched] = useState(false);
  const [baseError, setBaseError] = useState<string | undefined>();

  // Spec: only completed analyses can be the base.
  const completed = useMemo(() => analyses.filter((a) => a.status === 'completed' && a.cspRules), [analyses]);
  const configurations = list.data?.configurations ?? [];
  const loaded = configurations.find((c) => c.id === state.selectedId);
  const endpoint = list.data?.reportEndpoint || null;
  const body = useMemo(() => bodyOf(state), [state]);
  const composed = useMemo(() => composePolicy(body, endpoint), [body, endpoint]);
  const audit = useMemo(() => auditComposed(composed), [composed]);
  const dirty = isDirty(state, loaded);

  useEffect(() => {
    if (list.error) {
      toast({
        variant: 'destructive',
        title: 'Failed to fetch CSP configurations',
        description: errorText(list.error),
      });
    }
  }, [list.error]);

  // A first visit starts from the latest completed analysis, so the panel shows a policy at once; New clears
  // every field, as the spec says.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || list.isLoading || state.selectedId || state.baseAnalysisId) return;
    const latest = completed[0];
    if (!latest) return;
    started.current = true;
    setState((s) => ({ ...s, baseAnalysisId: latest.id, cspRules: latest.cspRules ?? {} }));
  }, [completed, list.isLoading, state.selectedId, state.baseAnalysisId]);

  const patch = (p: Partial<EditorState>) => setState((s) => ({ ...s, ...p }));

  function chooseBase(id: string) {
    const analysis = completed.find((a) => a.id === id);
    setBaseError(undefined);
    patch({
      baseAnalysisId: id,
      cspRules: analysis?.cspRules ?? (id === state.baseAnalysisId ? state.cspRules : {}),
    });
  }

  function onNew() {
    started.current = true;
    setState(blankState());
    setNameTouched(false);
    setBaseError(undefined);
  }

  function onSelect(id: string) {
    const c = configurations.find((x) => x.id === id);
    if (!c) return;
    setState(stateOf(c));
    setNameTouched(false);
    setBaseError(c.baseAnalysisId ? undefined : 'Please select a base analysis');
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
          setState(stateOf(saved, state.nonce));
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
      onNew();
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
    audit,
    dirty,
    saving: save.isPending,
    deleting: remove.isPending,
    nameError,
    baseError: baseError ?? (baseMissing ? 'Please select a base analysis' : undefined),
    baseMissing,
    touchName: () => setNameTouched(true),
    chooseBase,
    onNew,
    onSelect,
    onSave,
    onDelete,
  };
}
