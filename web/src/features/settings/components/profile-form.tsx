// Settings › Profile (spec section 2): first and last name and email; the username read-only ('Cannot be
// changed'); the role as a badge, admins styled apart. Changing the email asks for the current password.
import { type PublicUser, profileUpdateSchema } from '@csp/shared/schemas/auth';
import { type FormEvent, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/hooks/use-toast';
import {
  type FieldErrors,
  focusFirstInvalid,
  refusalMessage,
  serverFormErrors,
  validateForm,
} from '@/lib/validation';
import { useUpdateProfile } from '../api/account';

export function ProfileForm({ user }: { user: PublicUser }) {
  const [values, setValues] = useState({
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    email: user.email ?? '',
    currentPassword: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const update = useUpdateProfile();
  const emailChanged = values.email.trim().toLowerCase() !== (user.email ?? '').toLowerCase();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { currentPassword, ...rest } = values;
    const draft = emailChanged
      ? { ...rest, currentPassword }
      : { firstName: rest.firstName, lastName: rest.lastName };
    const result = validateForm(profileUpdateSchema, draft);
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    update.mutate(result.data, {
      onSuccess: () => {
        setValues((v) => ({ ...v, currentPassword: '' }));
        toast({ title: 'Profile updated', description: 'Your profile has been updated successfully.' });
      },
      onError: (error) => {
        // A refusal says why (e.g. the email change needs the current password), at its field; the spec's
        // generic text is for failures the user cannot fix.
        setErrors(serverFormErrors(error));
        toast({
          variant: 'destructive',
          title: 'Error',
          description: refusalMessage(error) ?? 'Failed to update profile. Please try again.',
        });
      },
    });
  }

  const set = (field: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Profile">
      <div className="flex flex-col gap-2">
        <Label htmlFor="settings-username">Username</Label>
        <div className="flex flex-wrap items-center gap-2">
          <Input id="settings-username" value={user.username} readOnly className="max-w-xs bg-slate-50" />
          <Badge variant="secondary">Cannot be changed</Badge>
          <Badge
            variant={user.role === 'admin' ? 'purple' : 'outline'}
            className="capitalize"
            data-testid="role-badge"
          >
            {user.role}
          </Badge>
        </div>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="settings-first-name" label="First name" error={errors.firstName}>
          <Input
            name="firstName"
            value={values.firstName}
            onChange={set('firstName')}
            autoComplete="given-name"
          />
        </Field>
        <Field id="settings-last-name" label="Last name" error={errors.lastName}>
          <Input
            name="lastName"
            value={values.lastName}
            onChange={set('lastName')}
            autoComplete="family-name"
          />
        </Field>
      </div>
      <Field id="settings-email" label="Email" error={errors.email}>
        <Input name="email" type="email" value={values.email} onChange={set('email')} autoComplete="email" />
      </Field>
      {emailChanged ? (
        <Field
          id="settings-email-password"
          label="Current password"
          error={errors.currentPassword}
          hint="Needed to change the email address of the account."
        >
          <PasswordInput
            name="currentPassword"
            value={values.currentPassword}
            onChange={set('currentPassword')}
            autoComplete="current-password"
          />
        </Field>
      ) : null}
      <FormError message={errors.form} />
      <Button type="submit" loading={update.isPending} className="self-start">
        {update.isPending ? 'Updating...' : 'Update Profile'}
      </Button>
    </form>
  );
}
