// The form state of "What alerts", a domain's and a team's alike: the values as typed, validation with the
// settings' body schema on Save (the days typed become a number), the server's refusal shown on its fields,
// and a toast either way. The two forms differ only in who is e-mailed, which each renders itself.
import { type FormEvent, useState } from 'react';
import type * as z from 'zod';
import { toast } from '@/hooks/use-toast';
import {
  type FieldErrors,
  focusFirstInvalid,
  refusalMessage,
  serverFormErrors,
  validateForm,
} from '@/lib/validation';
import { type AlertKindChoice, toggledKinds, typedDays } from './alert-kinds-fields';

export interface AlertKindsValues {
  kinds: AlertKindChoice[];
  /** As typed: validated on Save. */
  pendingDays: string;
}

/** What the form needs of a save mutation (TanStack Query's, structurally). */
interface SaveMutation<Body, Saved> {
  isPending: boolean;
  mutate(body: Body, options: { onSuccess(saved: Saved): void; onError(error: Error): void }): void;
}

export function useAlertKindsForm<V extends AlertKindsValues, S extends z.ZodType, Saved>(options: {
  initial: V;
  schema: S;
  save: SaveMutation<z.output<S>, Saved>;
  valuesOf: (saved: Saved) => V;
  savedToast: { title: string; description: string };
  failedMessage: string;
}) {
  const [values, setValues] = useState<V>(options.initial);
  const [errors, setErrors] = useState<FieldErrors>({});

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = validateForm(options.schema, {
      ...values,
      // An empty field is no number at all: the schema's message then says what is expected.
      pendingDays: typedDays(values.pendingDays),
    });
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    options.save.mutate(result.data, {
      onSuccess: (saved) => {
        setValues(options.valuesOf(saved));
        toast(options.savedToast);
      },
      onError: (error) => {
        setErrors(serverFormErrors(error));
        toast({
          variant: 'destructive',
          title: 'Error',
          description: refusalMessage(error) ?? options.failedMessage,
        });
      },
    });
  }

  /** The props of AlertKindsFieldset for these values. */
  const kindsFieldset = {
    kinds: values.kinds,
    pendingDays: values.pendingDays,
    pendingDaysError: errors.pendingDays,
    onToggle: (kind: AlertKindChoice, on: boolean) =>
      setValues((v) => ({ ...v, kinds: toggledKinds(v.kinds, kind, on) })),
    onPendingDays: (pendingDays: string) => {
      setValues((v) => ({ ...v, pendingDays }));
      setErrors((er) => ({ ...er, pendingDays: undefined }));
    },
  };

  return { values, setValues, errors, onSubmit, kindsFieldset };
}
