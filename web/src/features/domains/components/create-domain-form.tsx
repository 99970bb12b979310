// Add Domain form (spec "Add Domain"): Domain Name, Website URL, Active Status; 'Create Domain' / 'Cancel'.
// Errors (spec section 8): a 401 says 'Unauthorized: You are logged out. Logging in again...' and goes to
// /auth after 500 ms; any other failure says 'Error: Failed to create domain. Please try again.'
import { type Domain, domainCreateSchema } from '@csp/shared/schemas/domain';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input, UrlInput } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/hooks/use-toast';
import { type FieldErrors, focusFirstInvalid, serverFormErrors, validateForm } from '@/lib/validation';
import { useCreateDomain } from '../api/create-domain';

export function CreateDomainForm({
  onSuccess,
  onCancel,
}: {
  onSuccess: (domain: Domain) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [isActive, setIsActive] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submitting = useRef(false);

  const createMutation = useCreateDomain({
    onSuccess: (domain) => {
      toast({ title: 'Domain Created', description: 'Your domain has been added successfully.' });
      onSuccess(domain);
    },
    onError: (error) => {
      // The spec's toast, and what the server refused at its field or above the buttons.
      setErrors(serverFormErrors(error));
      toast({
        variant: 'destructive',
        title: 'Error',
        description: 'Failed to create domain. Please try again.',
      });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateForm(domainCreateSchema, { name, url, isActive });
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    // A double click submits twice before the button is disabled: one domain, not two.
    if (submitting.current) return;
    submitting.current = true;
    createMutation.mutate(result.data, {
      onSettled: () => {
        submitting.current = false;
      },
    });
  }

  const pending = createMutation.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6" aria-label="Add domain">
      <Field
        id="domain-name"
        label="Domain Name"
        error={errors.name}
        hint="A name you will recognise, for example “Marketing site”."
      >
        <Input
          name="name"
          placeholder="My Website"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={pending}
        />
      </Field>
      <Field
        id="domain-url"
        label="Website URL"
        error={errors.url}
        hint="The start page of the crawl. Include http:// or https://."
      >
        <UrlInput name="url" value={url} onChange={(e) => setUrl(e.target.value)} disabled={pending} />
      </Field>
      <div className="flex items-center justify-between gap-4 rounded-lg border border-border bg-slate-50/60 p-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="domain-active" className="text-sm font-medium">
            Active Status
          </label>
          <p id="domain-active-hint" className="text-sm text-muted-foreground">
            Active domains can be scanned and receive violation reports.
          </p>
        </div>
        <Switch
          id="domain-active"
          aria-describedby="domain-active-hint"
          checked={isActive}
          onCheckedChange={setIsActive}
          disabled={pending}
        />
      </div>
      <FormError message={errors.form} />
      <div className="flex flex-col-reverse gap-3 border-t border-border pt-6 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" loading={pending}>
          {pending ? 'Creating...' : 'Create Domain'}
        </Button>
      </div>
    </form>
  );
}
