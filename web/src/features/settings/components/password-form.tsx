// Settings › Security › Change Password (spec section 5 rules and messages). The server ends every other
// session of the account and keeps this one.
import { passwordChangeSchema } from '@csp/shared/schemas/auth';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/hooks/use-toast';
import {
  type FieldErrors,
  focusFirstInvalid,
  refusalMessage,
  serverFormErrors,
  validateForm,
} from '@/lib/validation';
import { useChangePassword } from '../api/account';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function PasswordForm() {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useChangePassword();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateForm(passwordChangeSchema, values);
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    change.mutate(result.data, {
      onSuccess: () => {
        setValues(EMPTY);
        toast({ title: 'Password changed', description: 'Your password has been changed successfully.' });
      },
      onError: (error) => {
        setErrors(serverFormErrors(error));
        toast({
          variant: 'destructive',
          title: 'Error',
          description: refusalMessage(error) ?? 'Failed to change password. Please try again.',
        });
      },
    });
  }

  const set = (field: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>Your other sessions end when the password changes; this one stays.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Change password">
          <Field id="current-password" label="Current password" error={errors.currentPassword}>
            <PasswordInput
              name="currentPassword"
              value={values.currentPassword}
              onChange={set('currentPassword')}
              autoComplete="current-password"
            />
          </Field>
          <Field id="new-password" label="New password" error={errors.newPassword}>
            <PasswordInput
              name="newPassword"
              value={values.newPassword}
              onChange={set('newPassword')}
              autoComplete="new-password"
            />
          </Field>
          <Field id="confirm-password" label="Confirm new password" error={errors.confirmPassword}>
            <PasswordInput
              name="confirmPassword"
              value={values.confirmPassword}
              onChange={set('confirmPassword')}
              autoComplete="new-password"
            />
          </Field>
          <FormError message={errors.form} />
          <Button type="submit" loading={change.isPending} className="self-start">
            {change.isPending ? 'Changing...' : 'Change Password'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
