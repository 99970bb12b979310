// What alerts: a checkbox per kind, the days a script may stay pending review before it alerts, whether the
// owner is e-mailed, and Save. A team member reads the same choices as text: no control that does nothing.
import { ALERT_KIND_TITLES, SUBSCRIBABLE_ALERT_KINDS } from '@csp/shared/alerts/alert';
import {
  ALERT_LIMITS,
  type AlertSettings,
  type AlertSettingsBody,
  alertSettingsBodySchema,
} from '@csp/shared/schemas/alert-settings';
import { Check, Minus } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { cn } from '@/lib/class-names';
import {
  type FieldErrors,
  focusFirstInvalid,
  refusalMessage,
  serverFormErrors,
  validateForm,
} from '@/lib/validation';
import { useSaveAlertSettings } from '../api/alert-settings';
import { PanelCardTitle } from './panel-card-title';

type Kind = (typeof SUBSCRIBABLE_ALERT_KINDS)[number];

interface Values {
  kinds: Kind[];
  email: boolean;
  /** As typed: validated (1–90) on Save. */
  pendingDays: string;
}

const valuesOf = (s: AlertSettingsBody): Values => ({
  kinds: s.kinds,
  email: s.email,
  pendingDays: String(s.pendingDays),
});

const sameValues = (a: Values, b: Values) =>
  a.email === b.email &&
  a.pendingDays === b.pendingDays &&
  a.kinds.length === b.kinds.length &&
  a.kinds.every((k) => b.kinds.includes(k));

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
  const [values, setValues] = useState<Values>(saved);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveAlertSettings(domainId);
  const changed = !sameValues(values, saved);
  const daysId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = validateForm(alertSettingsBodySchema, {
      ...values,
      // An empty field is no number at all: the schema's message then says what is expected.
      pendingDays: values.pendingDays.trim() === '' ? Number.NaN : Number(values.pendingDays),
    });
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    save.mutate(result.data, {
      onSuccess: (next) => {
        setValues(valuesOf(next));
        toast({
          title: 'Alert settings saved',
          description: 'Alerts of this domain follow them from now on.',
        });
      },
      onError: (error) => {
        setErrors(serverFormErrors(error));
        toast({
          variant: 'destructive',
          title: 'Error',
          description: refusalMessage(error) ?? 'Failed to save the alert settings. Please try again.',
        });
      },
    });
  }

  function toggle(kind: Kind, on: boolean) {
    // Kept in the order the kinds are listed, whatever order they were ticked in.
    setValues((v) => ({
      ...v,
      kinds: SUBSCRIBABLE_ALERT_KINDS.filter((k) => (k === kind ? on : v.kinds.includes(k))),
    }));
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="What alerts">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">Alert me about</legend>
        {SUBSCRIBABLE_ALERT_KINDS.map((kind) => (
          <div
            key={kind}
            className={cn(
              'flex flex-col gap-2 rounded-lg border border-border p-3 text-sm',
              'has-[input[type=checkbox]:checked]:border-primary/50 has-[input[type=checkbox]:checked]:bg-primary/5',
            )}
          >
            <label className="flex cursor-pointer items-start gap-3">
              <input
                type="checkbox"
                name="kinds"
                value={kind}
                checked={values.kinds.includes(kind)}
                onChange={(e) => toggle(kind, e.target.checked)}
                className="mt-0.5 size-4 shrink-0 accent-primary"
                data-testid={`alert-kind-${kind}`}
              />
              <span className="min-w-0 break-words">{ALERT_KIND_TITLES[kind]}</span>
            </label>
            {kind === 'script-pending' ? (
              <div className="flex flex-wrap items-center gap-2 pl-7 text-muted-foreground">
                <label htmlFor={daysId}>for more than</label>
                <Input
                  id={daysId}
                  name="pendingDays"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={ALERT_LIMITS.pendingDaysMax}
                  value={values.pendingDays}
                  onChange={(e) => {
                    setValues((v) => ({ ...v, pendingDays: e.target.value }));
                    setErrors((er) => ({ ...er, pendingDays: undefined }));
                  }}
                  aria-invalid={errors.pendingDays ? true : undefined}
                  aria-describedby={errors.pendingDays ? `${daysId}-error` : undefined}
                  className="h-8 w-20"
                  data-testid="alert-pending-days"
                />
                <span>days</span>
                {errors.pendingDays ? (
                  <p
                    id={`${daysId}-error`}
                    className="basis-full text-xs font-medium text-destructive"
                    role="alert"
                  >
                    {`Enter a number of days from 1 to ${ALERT_LIMITS.pendingDaysMax}`}
                  </p>
                ) : null}
              </div>
            ) : null}
          </div>
        ))}
      </fieldset>
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
      <ul className="flex flex-col gap-1.5" aria-label="Alert kinds">
        {SUBSCRIBABLE_ALERT_KINDS.map((kind) => {
          const on = settings.kinds.includes(kind);
          return (
            <li key={kind} className={cn('flex items-start gap-2', on ? '' : 'text-muted-foreground')}>
              {on ? (
                <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
              ) : (
                <Minus className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              )}
              <span className="min-w-0 break-words">
                {ALERT_KIND_TITLES[kind]}
                {kind === 'script-pending' ? ` for more than ${settings.pendingDays} days` : ''}
                <span className="sr-only">{on ? ': on' : ': off'}</span>
              </span>
            </li>
          );
        })}
      </ul>
      <p>
        E-mail the owner: <span className="font-medium">{settings.email ? 'on' : 'off'}</span>
      </p>
    </div>
  );
}
