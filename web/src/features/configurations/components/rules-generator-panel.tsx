// The CSP rules generator panel of the domain screen (spec sections 2, 4, 5 and 8): saved configurations
// with New, Save and Delete; name, description and base analysis; custom rules; suggestions from reports;
// deployment options; and the composed policy with its audit, copy, download and server file.
import { auditComposed, composePolicy } from '@csp/shared/configurations/compose';
import type { Analysis } from '@csp/shared/schemas/analysis';
import { CONFIGURATION_LIMITS, type Configuration } from '@csp/shared/schemas/configuration';
import { SlidersHorizontal } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { Separator } from '@/components/ui/separator';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useConfigurations } from '../api/get-configurations';
import { useDeleteConfiguration, useSaveConfiguration } from '../api/save-configuration';
import { blankState, bodyOf, type EditorState, isDirty, stateOf } from '../utils/editor-state';
import { ComposedPolicyView } from './composed-policy-view';
import { ConfigurationToolbar } from './configuration-toolbar';
import { CustomRulesEditor } from './custom-rules-editor';
import { DeploymentOptions } from './deployment-options';
import { type LoadSuggestions, ReportSuggestionsEditor } from './report-suggestions-editor';

const errorText = (error: unknown) =>
  error instanceof ApiError
    ? (error.serverMessage ?? error.message)
    : error instanceof Error
      ? error.message
      : '';

export function RulesGeneratorPanel({
  domainId,
  analyses,
  readOnly = false,
  loadSuggestions,
}: {
  domainId: string;
  analyses: Analysis[];
  /** A team member reading the owner's domain: everything but Save and Delete. */
  readOnly?: boolean;
  /** The reports' suggestions read (the reports feature's API, handed in by the route). */
  loadSuggestions: LoadSuggestions;
}) {
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

  return (
    <Card data-testid="rules-generator">
      <CardHeader
        actions={
          dirty && state.selectedId ? (
            <Badge variant="warning" data-testid="unsaved-changes">
              Unsaved changes
            </Badge>
          ) : null
        }
      >
        <CardTitle className="flex items-center gap-2">
          <SlidersHorizontal className="size-4 text-primary" aria-hidden="true" />
          CSP Rules Generator
        </CardTitle>
        <CardDescription>
          Start from an analysis, add what the crawl could not see and what reports taught you, then deploy it
          — report-only first.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {list.isLoading ? (
          <div className="flex flex-col gap-3" aria-busy="true">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-64 w-full" />
          </div>
        ) : (
          <>
            <ConfigurationToolbar
              configurations={configurations}
              selectedId={state.selectedId}
              dirty={dirty}
              canSave={Boolean(state.name.trim())}
              saving={save.isPending}
              deleting={remove.isPending}
              onSelect={onSelect}
              onNew={onNew}
              onSave={onSave}
              onDelete={onDelete}
              readOnly={readOnly}
            />
            {loaded ? (
              <p className="-mt-3 text-xs text-muted-foreground" data-testid="configuration-saved-at">
                Saved {formatDateTime(loaded.updatedAt)} · grade {loaded.audit.grade} when saved
              </p>
            ) : null}
            <Separator />
            <div className="grid items-start gap-8 lg:grid-cols-5">
              <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
                <div className="flex flex-col gap-4">
                  <Field id="configuration-name" label="Name" error={nameError}>
                    <Input
                      value={state.name}
                      maxLength={CONFIGURATION_LIMITS.nameMaxChars}
                      placeholder="Production policy"
                      onChange={(e) => patch({ name: e.target.value })}
                      onBlur={() => setNameTouched(true)}
                      data-testid="configuration-name"
                    />
                  </Field>
                  <Field id="configuration-description" label="Description">
                    <Textarea
                      value={state.description}
                      maxLength={CONFIGURATION_LIMITS.descriptionMaxChars}
                      placeholder="Where it is deployed, what changed"
                      className="min-h-16"
                      onChange={(e) => patch({ description: e.target.value })}
                      data-testid="configuration-description"
                    />
                  </Field>
                  <Field
                    id="configuration-base"
                    label="Base analysis"
                    error={baseError ?? (baseMissing ? 'Please select a base analysis' : undefined)}
                    hint="Only completed analyses can be the base: their rules are the starting point."
                  >
                    <Select
                      value={baseMissing ? '' : state.baseAnalysisId}
                      onChange={(e) => chooseBase(e.target.value)}
                      data-testid="configuration-base"
                    >
                      <option value="">Choose a completed analysis</option>
                      {completed.map((a) => (
                        <option key={a.id} value={a.id}>
                          {formatDateTime(a.completedAt ?? a.createdAt)} ·{' '}
                          {a.audit?.grade ? `grade ${a.audit.grade} · ` : ''}
                          {a.resourceStats?.totalResources ?? 0} resources
                        </option>
                      ))}
                    </Select>
                  </Field>
                </div>
                <Separator />
                <CustomRulesEditor
                  customRules={state.customRules}
                  onChange={(customRules) => patch({ customRules })}
                />
                <Separator />
                <ReportSuggestionsEditor
                  domainId={domainId}
                  enabled={state.includeUriReports}
                  onEnabledChange={(includeUriReports) => patch({ includeUriReports })}
                  state={state}
                  composed={composed.rules}
                  onChange={(s) => patch(s)}
                  loadSuggestions={loadSuggestions}
                />
                <Separator />
                <DeploymentOptions state={state} reportEndpoint={endpoint} onChange={patch} />
              </div>
              <div className="min-w-0 lg:col-span-3">
                {Object.keys(state.cspRules).length === 0 && !state.reportOnlyMode ? (
                  <EmptyState
                    icon={SlidersHorizontal}
                    title={completed.length === 0 ? 'No completed analysis yet' : 'Choose a base analysis'}
                    description={
                      completed.length === 0
                        ? 'A configuration starts from the rules of a completed analysis. Run one above.'
                        : 'Its rules are the starting point of the policy; your custom rules are added to them.'
                    }
                    className="py-12"
                  />
                ) : (
                  <ComposedPolicyView
                    composed={composed}
                    audit={audit}
                    serverType={state.serverType}
                    savedId={state.selectedId && !dirty ? state.selectedId : null}
                  />
                )}
              </div>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
