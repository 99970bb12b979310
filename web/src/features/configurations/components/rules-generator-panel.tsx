// The CSP rules generator panel of the domain screen (spec sections 2, 4, 5 and 8): saved configurations
// with New, Save and Delete; name, description and base analysis; custom rules; suggestions from reports;
// deployment options; and the composed policy with its audit, copy, download and server file. Its state
// and actions live in useRulesGenerator; this file lays them out, and asks before unsaved changes are left.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { CONFIGURATION_LIMITS } from '@csp/shared/schemas/configuration';
import { SlidersHorizontal } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { Input, Select, Textarea } from '@/components/ui/input';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Separator } from '@/components/ui/separator';
import { Skeleton } from '@/components/ui/skeleton';
import { useUnsavedChangesGuard } from '@/hooks/use-unsaved-changes-guard';
import { formatDateTime } from '@/lib/format';
import { useRulesGenerator } from '../hooks/use-rules-generator';
import { ComposedPolicyView } from './composed-policy-view';
import { ConfigurationToolbar } from './configuration-toolbar';
import { CustomRulesEditor } from './custom-rules-editor';
import { DeploymentOptions } from './deployment-options';
import { type LoadSuggestions, ReportSuggestionsEditor } from './report-suggestions-editor';
import { UnsavedChangesDialog } from './unsaved-changes-dialog';

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
  const generator = useRulesGenerator(domainId, analyses, readOnly);
  const { state, patch, completed, composed } = generator;
  const leaving = useUnsavedChangesGuard(generator.guarded);
  return (
    <Card data-testid="rules-generator">
      <CardHeader
        actions={
          generator.guarded ? (
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
        {generator.isLoading ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading the configurations...">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-64 w-full" />
          </LoadingBlock>
        ) : (
          <>
            <ConfigurationToolbar
              configurations={generator.configurations}
              selectedId={state.selectedId}
              dirty={generator.dirty}
              canSave={Boolean(state.name.trim())}
              saving={generator.saving}
              deleting={generator.deleting}
              onSelect={generator.onSelect}
              onNew={generator.onNew}
              onSave={generator.onSave}
              onDelete={generator.onDelete}
              readOnly={readOnly}
            />
            {generator.loaded ? (
              <p className="-mt-3 text-xs text-muted-foreground" data-testid="configuration-saved-at">
                Saved {formatDateTime(generator.loaded.updatedAt)} · grade {generator.loaded.audit.grade} when
                saved
              </p>
            ) : null}
            <Separator />
            <div className="grid items-start gap-8 lg:grid-cols-5">
              <div className="flex min-w-0 flex-col gap-6 lg:col-span-2">
                <div className="flex flex-col gap-4">
                  <Field id="configuration-name" label="Name" error={generator.nameError}>
                    <Input
                      value={state.name}
                      maxLength={CONFIGURATION_LIMITS.nameMaxChars}
                      placeholder="Production policy"
                      onChange={(e) => patch({ name: e.target.value })}
                      onBlur={generator.touchName}
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
                    error={generator.baseError}
                    hint="Only completed analyses can be the base: their rules are the starting point."
                  >
                    <Select
                      value={generator.baseMissing ? '' : state.baseAnalysisId}
                      onChange={(e) => generator.chooseBase(e.target.value)}
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
                <DeploymentOptions
                  state={state}
                  reportEndpoint={generator.endpoint}
                  offeredNames={generator.offeredNames}
                  onChange={patch}
                />
              </div>
              <div className="min-w-0 lg:col-span-3">
                {!generator.showsPolicy ? (
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
                ) : generator.audited ? (
                  <ComposedPolicyView
                    composed={generator.audited.composed}
                    audit={generator.audited.audit}
                    serverType={state.serverType}
                    savedId={state.selectedId && !generator.dirty ? state.selectedId : null}
                  />
                ) : (
                  <Skeleton className="h-96 w-full rounded-xl" />
                )}
              </div>
            </div>
          </>
        )}
      </CardContent>
      <UnsavedChangesDialog
        open={leaving.state === 'blocked'}
        action="leave"
        name={state.name}
        onStay={() => leaving.reset?.()}
        onDiscard={() => leaving.proceed?.()}
      />
      <UnsavedChangesDialog
        open={generator.pendingSwitch}
        action="switch"
        name={state.name}
        onStay={generator.cancelSwitch}
        onDiscard={generator.confirmSwitch}
      />
    </Card>
  );
}
