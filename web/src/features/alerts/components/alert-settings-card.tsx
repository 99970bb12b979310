// What alerts: a checkbox per kind, the days a script may stay pending review before it alerts, whether the
// owner is e-mailed, and Save. A team member reads the same choices as text: no control that does nothing.
import {
  type AlertSettings,
  type AlertSettingsBody,
  alertSettingsBodySchema,
} from '@csp/shared/schemas/alert-settings';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormError } from '@/components/ui/form-error';
import { useSaveAlertSettings } from '../api/alert-settings';
import { AlertKindsFieldset, AlertKindsSummary, sameKinds } from './alert-kinds-fields';
import { type AlertKindsValues, useAlertKindsForm } from './alert-kinds-form';
import { PanelCardTitle } from './panel-card-title';

interface Values extends AlertKindsValues {
  email: boolean;
}

const valuesOf = (s: AlertSettingsBody): Values => ({
  kinds: s.kinds,
  email: s.email,
  pendingDays: String(s.pendingDays),
});

const sameValues = (a: Values, b: Values) =>
  a.email === b.email && a.pendingDays === b.pendingDays && sameKinds(a.kinds, b.kinds);

export function AlertSettingsCard({
  domainId,
  settings,
  readOnly,
}: {
  domainId: string;
  settings: AlertSettings;
  readOnly: boolean;
}) {
  return (
    <Card data-testid="alert-settings">
      <CardHeader>
        <PanelCardTitle>What alerts</PanelCardTitle>
        <CardDescription>
          Alerts of one cause are grouped: raised again, they are counted and sent again at most once a day.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {readOnly ? (
          <SettingsSummary settings={settings} />
        ) : (
          <SettingsForm domainId={domainId} settings={settings} />
        )}
      </CardContent>
    </Card>
  );
}

function SettingsForm({ domainId, settings }: { domainId: string; settings: AlertSettings }) {
  const saved = valuesOf(settings);
  const save = useSaveAlertSettings(domainId);
  const { values, setValues, errors, onSubmit, kindsFieldset } = useAlertKindsForm({
    initial: saved,
    schema: alertSettingsBodySchema,
    save,
    valuesOf,
    savedToast: {
      title: 'Alert settings saved',
      description: 'Alerts of this domain follow them from now on.',
    },
    failedMessage: 'Failed to save the alert settings. Please try again.',
  });
  const changed = !sameValues(values, saved);

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="What alerts">
      <AlertKindsFieldset {...kindsFieldset} />
      <label className="flex cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          name="email"
          checked={values.email}
          onChange={(e) => setValues((v) => ({ ...v, email: e.target.checked }))}
          className="mt-0.5 size-4 shrink-0 accent-primary"
          data-testid="alert-email"
        />
        <span className="flex min-w-0 flex-col">
          <span className="font-medium">E-mail the owner</span>
          <span className="text-muted-foreground">
            To the address of the domain's owner, when the product has a mail server.
          </span>
        </span>
      </label>
      <FormError message={errors.form ?? errors.kinds ?? errors.email} />
      <div>
        <Button
          type="submit"
          loading={save.isPending}
          disabled={!changed || save.isPending}
          data-testid="save-alert-settings"
        >
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

function SettingsSummary({ settings }: { settings: AlertSettings }) {
  return (
    <div className="flex flex-col gap-4 text-sm" data-testid="alert-settings-read-only">
      <AlertKindsSummary kinds={settings.kinds} pendingDays={settings.pendingDays} />
      <p>
        E-mail the owner: <span className="font-medium">{settings.email ? 'on' : 'off'}</span>
      </p>
    </div>
  );
}
