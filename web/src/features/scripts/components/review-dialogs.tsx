// The owner's two review dialogs: authorize the selected scripts with one written justification (PCI DSS
// 6.4.3 asks for one per script; bulk review gives the same to many), and add a URL-pattern rule whose new
// versions inherit the authorization. Either can vouch for any content instead of the content seen now.
import { SCRIPT_INVENTORY_LIMITS } from '@csp/shared/schemas/script-inventory';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input, Textarea } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { countOf } from '@/lib/format';

const messageOf = (error: Error | null) =>
  error ? (error instanceof ApiError && error.serverMessage) || error.message : undefined;

function AnyContent({
  checked,
  onChange,
  hint,
}: {
  checked: boolean;
  onChange: (v: boolean) => void;
  hint: string;
}) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        className="mt-0.5 size-4 accent-primary"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        Any content
        <span className="block text-xs text-muted-foreground">{hint}</span>
      </span>
    </label>
  );
}

export function AuthorizeDialog({
  open,
  onOpenChange,
  count,
  pending,
  error,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  count: number;
  pending: boolean;
  error: Error | null;
  onSubmit: (input: { justification: string; anyContent: boolean }) => void;
}) {
  const formId = useId();
  const [justification, setJustification] = useState('');
  const [anyContent, setAnyContent] = useState(false);
  const [missing, setMissing] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!justification.trim()) return setMissing(true);
    onSubmit({ justification: justification.trim(), anyContent });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Authorize ${countOf(count, 'script')}`}
      description="Say why the site needs them: the justification is kept with each script's history."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            Authorize
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="flex flex-col gap-4">
        <Field
          id={`${formId}-justification`}
          label="Business or technical justification"
          error={missing ? 'A justification is required' : undefined}
        >
          <Textarea
            value={justification}
            maxLength={SCRIPT_INVENTORY_LIMITS.justificationChars}
            onChange={(e) => {
              setJustification(e.target.value);
              setMissing(false);
            }}
          />
        </Field>
        <AnyContent
          checked={anyContent}
          onChange={setAnyContent}
          hint="Stay authorized when the content changes. Otherwise a change puts it back to pending review."
        />
        <FormError message={messageOf(error)} />
      </form>
    </Dialog>
  );
}

export function RuleDialog({
  open,
  onOpenChange,
  pending,
  error,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  error: Error | null;
  onSubmit: (input: { pattern: string; justification: string; anyContent: boolean }) => void;
}) {
  const formId = useId();
  const [pattern, setPattern] = useState('');
  const [justification, setJustification] = useState('');
  const [anyContent, setAnyContent] = useState(false);
  const [missing, setMissing] = useState<'pattern' | 'justification' | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!pattern.trim()) return setMissing('pattern');
    if (!justification.trim()) return setMissing('justification');
    onSubmit({ pattern: pattern.trim(), justification: justification.trim(), anyContent });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add an authorization rule"
      description="Scripts whose URL matches the pattern are authorized, now and as new versions appear."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            Add rule
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="flex flex-col gap-4">
        <Field
          id={`${formId}-pattern`}
          label="URL pattern"
          hint="* stands for any characters, e.g. https://cdn.example.com/app/bundle.*.js"
          error={missing === 'pattern' ? 'A URL pattern is required' : undefined}
        >
          <Input
            value={pattern}
            spellCheck={false}
            autoCapitalize="none"
            className="font-mono"
            onChange={(e) => {
              setPattern(e.target.value);
              setMissing(null);
            }}
          />
        </Field>
        <Field
          id={`${formId}-justification`}
          label="Business or technical justification"
          error={missing === 'justification' ? 'A justification is required' : undefined}
        >
          <Textarea
            value={justification}
            maxLength={SCRIPT_INVENTORY_LIMITS.justificationChars}
            onChange={(e) => {
              setJustification(e.target.value);
              setMissing(null);
            }}
          />
        </Field>
        <AnyContent
          checked={anyContent}
          onChange={setAnyContent}
          hint="Matching scripts stay authorized when their content changes (e.g. a vendor's evergreen tag)."
        />
        <FormError message={messageOf(error)} />
      </form>
    </Dialog>
  );
}
