// The part of alert settings a domain's and a team's share: which kinds alert, with the days a script may
// stay pending review before it does, as checkboxes to change or as a list to read.
import { ALERT_KIND_TITLES, SUBSCRIBABLE_ALERT_KINDS } from '@csp/shared/alerts/alert';
import { ALERT_LIMITS } from '@csp/shared/schemas/alert-settings';
import { Check, Minus } from 'lucide-react';
import { useId } from 'react';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/class-names';

export type AlertKindChoice = (typeof SUBSCRIBABLE_ALERT_KINDS)[number];

/** The kinds with one turned on or off, in the order they are listed whatever order they were ticked in. */
export const toggledKinds = (kinds: readonly AlertKindChoice[], kind: AlertKindChoice, on: boolean) =>
  SUBSCRIBABLE_ALERT_KINDS.filter((k) => (k === kind ? on : kinds.includes(k)));

/** The days as typed, for the schema: an empty field is no number at all (its message says what is expected). */
export const typedDays = (typed: string) => (typed.trim() === '' ? Number.NaN : Number(typed));

export const sameKinds = (a: readonly AlertKindChoice[], b: readonly AlertKindChoice[]) =>
  a.length === b.length && a.every((k) => b.includes(k));

export function AlertKindsFieldset({
  kinds,
  pendingDays,
  pendingDaysError,
  onToggle,
  onPendingDays,
}: {
  kinds: readonly AlertKindChoice[];
  /** As typed. */
  pendingDays: string;
  pendingDaysError: string | undefined;
  onToggle: (kind: AlertKindChoice, on: boolean) => void;
  onPendingDays: (typed: string) => void;
}) {
  const daysId = useId();
  return (
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
              checked={kinds.includes(kind)}
              onChange={(e) => onToggle(kind, e.target.checked)}
              className="mt-0.5 size-4 shrink-0 accent-primary"
              data-testid={`alert-kind-${kind}`}
            />
            <span className="min-w-0 break-words">{ALERT_KIND_TITLES[kind]}</span>
          </label>
          {kind === 'script-pending' ? (
            <div className="flex flex-wrap items-center gap-2 pl-7 text-slate-600">
              {/* Darker than muted: it sits on the tinted background of a checked kind (contrast 4.5:1). */}
              <label htmlFor={daysId}>for more than</label>
              <Input
                id={daysId}
                name="pendingDays"
                type="number"
                inputMode="numeric"
                min={1}
                max={ALERT_LIMITS.pendingDaysMax}
                value={pendingDays}
                onChange={(e) => onPendingDays(e.target.value)}
                aria-invalid={pendingDaysError ? true : undefined}
                aria-describedby={pendingDaysError ? `${daysId}-error` : undefined}
                className="h-8 w-20"
                data-testid="alert-pending-days"
              />
              <span>days</span>
              {pendingDaysError ? (
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
  );
}

export function AlertKindsSummary({
  kinds,
  pendingDays,
}: {
  kinds: readonly AlertKindChoice[];
  pendingDays: number;
}) {
  return (
    <ul className="flex flex-col gap-1.5" aria-label="Alert kinds">
      {SUBSCRIBABLE_ALERT_KINDS.map((kind) => {
        const on = kinds.includes(kind);
        return (
          <li key={kind} className={cn('flex items-start gap-2', on ? '' : 'text-muted-foreground')}>
            {on ? (
              <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            ) : (
              <Minus className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            )}
            <span className="min-w-0 break-words">
              {ALERT_KIND_TITLES[kind]}
              {kind === 'script-pending' ? ` for more than ${pendingDays} days` : ''}
              <span className="sr-only">{on ? ': on' : ': off'}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
