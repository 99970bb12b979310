// Settings › API tokens › Create token: a name, at least one scope, an expiry (90 days unless chosen), then
// the new token's value, shown this once with Copy. The value lives only in this dialog's state: closing the
// dialog forgets it (and the creation's mutation, kept nowhere else: see api/api-tokens.ts).

import {
  API_TOKEN_LIMITS,
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  type ApiTokenScope,
  createApiTokenSchema,
} from '@csp/shared/schemas/api-token';
import { Check, Copy } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input, Select, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { copyWithToast } from '@/hooks/copy-with-toast';
import { cn } from '@/lib/class-names';
import { type FieldErrors, focusFirstInvalid, serverFormErrors, validateForm } from '@/lib/validation';
import { useCreateApiToken } from '../api/api-tokens';

/** The expiries offered, in days; the longest is the server's limit. '' stands for never. */
const EXPIRY_CHOICES = [30, API_TOKEN_LIMITS.defaultExpiryDays, 180, API_TOKEN_LIMITS.maxExpiryDays] as const;
const NEVER = 'never';

interface Values {
  name: string;
  scopes: ApiTokenScope[];
  expiry: string;
}

const EMPTY: Values = { name: '', scopes: [], expiry: String(API_TOKEN_LIMITS.defaultExpiryDays) };

export function CreateApiTokenDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateApiToken();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);

  function close() {
    // Forget everything the dialog held, the token's value first.
    setCreated(null);
    setValues(EMPTY);
    setErrors({});
    if (!create.isPending) create.reset();
    onOpenChange(false);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = {
      name: values.name,
      scopes: values.scopes,
      expiresInDays: values.expiry === NEVER ? null : Number(values.expiry),
    };
    const result = validateForm(createApiTokenSchema, input);
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(form);
      return;
    }
    setErrors({});
    create.mutate(result.data, {
      onSuccess: (data) => {
        setCreated({ name: data.name, token: data.token });
        // The answer stays nowhere but in `created`.
        create.reset();
        // Escape may have closed the dialog while the token was being made: its value is shown only now,
        // so the dialog opens again to show it.
        onOpenChange(true);
      },
      onError: (error) => {
        const next = serverFormErrors(error);
        if (Object.keys(next).length === 0) next.form = 'Failed to create the token. Please try again.';
        setErrors(next);
        focusFirstInvalid(form);
      },
    });
  }

  function toggleScope(scope: ApiTokenScope, on: boolean) {
    setValues((v) => ({
      ...v,
      // Kept in the order the scopes are listed, whatever order they were ticked in.
      scopes: API_TOKEN_SCOPES.filter((s) => (s === scope ? on : v.scopes.includes(s))),
    }));
    setErrors((e) => ({ ...e, scopes: undefined }));
  }

  const formId = useId();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
      }}
      title={created ? 'Token created' : 'Create API token'}
      description={
        created
          ? `Copy the value of “${created.name}” now and keep it somewhere safe, such as your CI's secrets.`
          : 'Give the token a name you will recognise and only the scopes its script needs.'
      }
      footer={
        created ? (
          <Button onClick={close} data-testid="api-token-done">
            Done
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" form={formId} loading={create.isPending} data-testid="submit-api-token">
              {create.isPending ? 'Creating...' : 'Create token'}
            </Button>
          </>
        )
      }
    >
      {created ? (
        <CreatedToken token={created.token} />
      ) : (
        <form
          id={formId}
          onSubmit={onSubmit}
          noValidate
          className="flex flex-col gap-4"
          aria-label="Create API token"
        >
          <Field id="api-token-name" label="Name" error={errors.name} hint="For example: Deploy pipeline">
            <Input
              name="name"
              value={values.name}
              maxLength={API_TOKEN_LIMITS.nameChars}
              autoComplete="off"
              onChange={(e) => {
                setValues((v) => ({ ...v, name: e.target.value }));
                setErrors((er) => ({ ...er, name: undefined }));
              }}
            />
          </Field>
          <ScopeChoices chosen={values.scopes} error={errors.scopes} onChange={toggleScope} />
          <Field id="api-token-expiry" label="Expires" error={errors.expiresInDays}>
            <Select
              name="expiry"
              value={values.expiry}
              onChange={(e) => setValues((v) => ({ ...v, expiry: e.target.value }))}
            >
              {EXPIRY_CHOICES.map((days) => (
                <option key={days} value={String(days)}>
                  In {days} days
                </option>
              ))}
              <option value={NEVER}>Never</option>
            </Select>
          </Field>
          <FormError message={errors.form} />
        </form>
      )}
    </Dialog>
  );
}

function ScopeChoices({
  chosen,
  error,
  onChange,
}: {
  chosen: ApiTokenScope[];
  error: string | undefined;
  onChange: (scope: ApiTokenScope, on: boolean) => void;
}) {
  const errorId = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-2 text-sm font-medium">Scopes</legend>
      {API_TOKEN_SCOPES.map((scope) => (
        <label
          key={scope}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-lg border border-border p-3 text-sm',
            'has-[:checked]:border-primary/50 has-[:checked]:bg-primary/5',
          )}
        >
          <input
            type="checkbox"
            name="scopes"
            value={scope}
            checked={chosen.includes(scope)}
            onChange={(e) => onChange(scope, e.target.checked)}
            aria-invalid={error ? true : undefined}
            className="mt-0.5 size-4 shrink-0 accent-primary"
          />
          <span className="flex min-w-0 flex-col">
            <span className="font-mono text-xs font-medium">{scope}</span>
            <span className="text-muted-foreground">{API_TOKEN_SCOPE_LABELS[scope]}</span>
          </span>
        </label>
      ))}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function CreatedToken({ token }: { token: string }) {
  const field = useRef<HTMLTextAreaElement>(null);
  // The value is what the user came for: it gets the focus, selected, ready to copy.
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  // The toast shows under the modal's backdrop: the button says it too.
  const [copied, setCopied] = useState(false);

  async function onCopy() {
    if (await copyWithToast(token, 'the token')) setCopied(true);
  }

  return (
    <div className="flex flex-col gap-4" data-testid="created-api-token">
      <Alert tone="warning" title="This is the only time the token is shown">
        We keep only a hash of it. If you lose it, revoke it and create another.
      </Alert>
      <div className="flex flex-col gap-2">
        <Label htmlFor="created-api-token-value">Your new token</Label>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          {/* A textarea, so the whole value shows (wrapped) even on a phone. */}
          <Textarea
            id="created-api-token-value"
            ref={field}
            value={token}
            readOnly
            rows={2}
            spellCheck={false}
            className="min-w-0 resize-none font-mono text-xs break-all"
            data-testid="api-token-value"
          />
          <Button
            variant="outline"
            className="self-start"
            onClick={() => void onCopy()}
            data-testid="copy-api-token"
          >
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
      </div>
    </div>
  );
}
