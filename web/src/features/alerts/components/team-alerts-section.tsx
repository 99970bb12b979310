// The team's Alerts (its Settings › Team tab): what alerts and which members are e-mailed, and the team's
// webhooks with "Send test", set once for every domain of the team that uses the team's settings (each
// domain's Monitoring screen has the switch). The owner changes them; a member reads them.
import type { Team, TeamMember } from '@csp/shared/schemas/team';
import {
  type TeamAlertSettings,
  type TeamAlertSettingsBody,
  teamAlertSettingsBodySchema,
} from '@csp/shared/schemas/team-alert-settings';
import { useMemo } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormError } from '@/components/ui/form-error';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { teamScope } from '../api/alert-scope';
import { useSaveTeamAlertSettings, useTeamAlertSettings } from '../api/team-alert-settings';
import { AlertKindsFieldset, AlertKindsSummary, sameKinds } from './alert-kinds-fields';
import { type AlertKindsValues, useAlertKindsForm } from './alert-kinds-form';
import { PanelCardTitle } from './panel-card-title';
import { WebhooksCard } from './webhooks-card';

const nameOf = (m: TeamMember) => [m.firstName, m.lastName].filter(Boolean).join(' ') || m.username;

export function TeamAlertsSection({
  team,
  isOwner,
  members,
}: {
  team: Team;
  isOwner: boolean;
  members: readonly TeamMember[];
}) {
  const settings = useTeamAlertSettings(team);
  const people = useMemo(() => new Map(members.map((m) => [m.id, nameOf(m)])), [members]);
  return (
    <Card data-testid="team-alerts">
      <CardHeader>
        <CardTitle>Alerts</CardTitle>
        <CardDescription>
          Set once for every domain of the team. Each domain follows these settings unless its Monitoring tab
          turns "Use the team's alert settings" off; then only its own apply, never both.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <LoadingBlock label="Loading the team's alert settings...">
            <Skeleton className="h-72 w-full rounded-xl" />
          </LoadingBlock>
        ) : settings.isError || !settings.data ? (
          <Alert tone="error" role="alert" title="Could not load the team's alert settings">
            <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : (
          <div className="flex flex-col gap-6">
            {settings.data.saved ? null : (
              <Alert tone="info" testId="team-alerts-unsaved">
                {isOwner
                  ? "Not saved yet: until you save them, each domain keeps its own alert settings. Saving makes them apply to every domain that uses the team's settings."
                  : 'The owner has not set them yet: each domain has its own alert settings.'}
              </Alert>
            )}
            <div className="grid min-w-0 items-start gap-6 lg:grid-cols-2">
              <TeamSettingsCard
                team={team}
                settings={settings.data}
                members={members}
                people={people}
                readOnly={!isOwner}
              />
              <WebhooksCard
                scope={teamScope(team.id)}
                webhooks={settings.data.webhooks}
                readOnly={!isOwner}
                people={people}
              />
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

interface Values extends AlertKindsValues {
  recipients: string[];
}

const valuesOf = (s: TeamAlertSettingsBody): Values => ({
  kinds: s.kinds,
  pendingDays: String(s.pendingDays),
  recipients: s.recipients,
});

const sameValues = (a: Values, b: Values) =>
  a.pendingDays === b.pendingDays &&
  sameKinds(a.kinds, b.kinds) &&
  a.recipients.length === b.recipients.length &&
  a.recipients.every((r) => b.recipients.includes(r));

function TeamSettingsCard({
  team,
  settings,
  members,
  people,
  readOnly,
}: {
  team: Team;
  settings: TeamAlertSettings;
  members: readonly TeamMember[];
  people: ReadonlyMap<string, string>;
  readOnly: boolean;
}) {
  return (
    <Card data-testid="team-alert-settings">
      <CardHeader>
        <PanelCardTitle>What alerts</PanelCardTitle>
        <CardDescription>
          Alerts of one cause are grouped: raised again, they are counted and sent again at most once a day.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {readOnly ? (
          <div className="flex flex-col gap-4 text-sm" data-testid="team-alert-settings-read-only">
            <AlertKindsSummary kinds={settings.kinds} pendingDays={settings.pendingDays} />
            <p>
              E-mailed to:{' '}
              <span className="font-medium">
                {settings.recipients.length === 0
                  ? 'nobody'
                  : settings.recipients.map((id) => people.get(id) ?? 'a former member').join(', ')}
              </span>
            </p>
          </div>
        ) : (
          <TeamSettingsForm team={team} settings={settings} members={members} />
        )}
      </CardContent>
    </Card>
  );
}

function TeamSettingsForm({
  team,
  settings,
  members,
}: {
  team: Team;
  settings: TeamAlertSettings;
  members: readonly TeamMember[];
}) {
  const saved = valuesOf(settings);
  const save = useSaveTeamAlertSettings(team);
  const { values, setValues, errors, onSubmit, kindsFieldset } = useAlertKindsForm({
    initial: saved,
    schema: teamAlertSettingsBodySchema,
    save,
    valuesOf,
    savedToast: {
      title: "Team's alert settings saved",
      description: "The team's domains that use them follow them from now on.",
    },
    failedMessage: "Failed to save the team's alert settings. Please try again.",
  });
  // Never saved: saving the defaults as they are is a choice too (it makes them apply).
  const changed = !settings.saved || !sameValues(values, saved);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="What alerts the team">
      <AlertKindsFieldset {...kindsFieldset} />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">E-mail the alerts to</legend>
        {members.map((m) => (
          <label key={m.id} className="flex cursor-pointer items-start gap-3 text-sm">
            <input
              type="checkbox"
              name="recipients"
              value={m.id}
              checked={values.recipients.includes(m.id)}
              onChange={(e) => {
                const on = e.target.checked;
                setValues((v) => ({
                  ...v,
                  recipients: members
                    .map((x) => x.id)
                    .filter((id) => (id === m.id ? on : v.recipients.includes(id))),
                }));
              }}
              className="mt-0.5 size-4 shrink-0 accent-primary"
              data-testid="team-alert-recipient"
            />
            <span className="flex min-w-0 flex-col">
              <span className="font-medium break-words">
                {nameOf(m)}
                {m.role === 'owner' ? ' (owner)' : ''}
              </span>
              <span className="break-all text-muted-foreground">{m.email ?? 'no e-mail address'}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <FormError message={errors.form ?? errors.kinds ?? errors.recipients} />
      <div>
        <Button
          type="submit"
          loading={save.isPending}
          disabled={!changed || save.isPending}
          data-testid="save-team-alert-settings"
        >
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
