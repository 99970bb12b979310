// On a team domain's Monitoring screen: the switch "Use the team's alert settings" and a line saying whose
// settings apply now. Following the team replaces the domain's own settings whole (they are kept, unused,
// for when the switch goes off). A team member reads the same line without the switch.
import type { AlertSettingsChoice } from '@csp/shared/schemas/team-alert-settings';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { refusalMessage } from '@/lib/validation';
import { useSetAlertSource } from '../api/alert-settings';
import { PanelCardTitle } from './panel-card-title';

/** Whose settings apply, in words. */
export function appliesLine(choice: AlertSettingsChoice): string {
  const team = choice.team?.name ?? 'your team';
  if (choice.applies === 'team') {
    return `The alert settings of the team ${team} apply to this domain: its kinds, members and webhooks. This domain's own settings below are kept but not used.`;
  }
  if (choice.useTeamSettings && choice.team && !choice.team.saved) {
    return `The team ${team} has not set alert settings yet: this domain's own settings below apply until it does.`;
  }
  return "This domain's own alert settings below apply.";
}

export function AlertSourceCard({
  domainId,
  choice,
  readOnly,
}: {
  domainId: string;
  choice: AlertSettingsChoice;
  readOnly: boolean;
}) {
  const set = useSetAlertSource(domainId);
  const switchId = `alert-source-${domainId}`;
  function onChange(on: boolean) {
    set.mutate(on, {
      onSuccess: (saved) =>
        toast({
          title: on ? "The team's alert settings apply" : "This domain's own alert settings apply",
          description:
            saved.applies === 'team'
              ? 'Alerts go where the team chose.'
              : 'Alerts go where this domain chose.',
        }),
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description:
            refusalMessage(error) ?? 'Failed to change whose alert settings apply. Please try again.',
        }),
    });
  }
  return (
    <Card data-testid="alert-source">
      <CardHeader>
        <PanelCardTitle>Whose alert settings</PanelCardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {readOnly ? null : (
          <div className="flex items-center justify-between gap-4">
            <label htmlFor={switchId} className="font-medium">
              Use the team's alert settings
            </label>
            <Switch
              id={switchId}
              checked={choice.useTeamSettings}
              disabled={set.isPending}
              onCheckedChange={onChange}
              data-testid="use-team-alert-settings"
            />
          </div>
        )}
        <p className="text-muted-foreground" data-testid="alert-settings-applies">
          {appliesLine(choice)}
        </p>
        {choice.team ? (
          <Link to="/settings?tab=team" className="self-start font-medium text-primary hover:underline">
            The team's alert settings
          </Link>
        ) : null}
      </CardContent>
    </Card>
  );
}
