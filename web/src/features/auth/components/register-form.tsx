// Create-account form: username, email, password, first and last name, and the verification widget.
import { type PublicUser, registerSchema } from '@csp/shared/schemas/auth';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors, validateForm } from '@/lib/validation';
import { useRegister } from '../api/register';
import { AltchaField, type AltchaFieldHandle } from './altcha-field';
import { CAPTCHA_REQUIRED } from './login-form';

const REGISTRATION_FAILED = 'Please try again with different details.';

export function RegisterForm({ onSuccess }: { onSuccess: (user: PublicUser) => void }) {
  const [values, setValues] = useState({
    username: '',
    email: '',
    password: '',
    firstName: '',
    lastName: '',
  });
  const [altcha, setAltcha] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const widget = useRef<AltchaFieldHandle>(null);

  const registerMutation = useRegister({
    onSuccess: (user) => {
      toast({
        title: 'Registration successful',
        description: 'Welcome to CSP Generator! Your account is ready.',
      });
      onSuccess(user);
    },
    onError: (error) => {
      widget.current?.reset();
      // Spec: the toast is always the same; the fields say what to change (a taken username does; whether an
      // email has an account is never told).
      const fieldErrors = serverFieldErrors(error);
      if (
        error instanceof ApiError &&
        error.status === 409 &&
        error.serverMessage === 'Username already taken'
      ) {
        fieldErrors.username ??= error.serverMessage;
      }
      setErrors(fieldErrors);
      toast({ variant: 'destructive', title: 'Registration failed', description: REGISTRATION_FAILED });
    },
  });

  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateForm(registerSchema, { ...values, altcha: altcha ?? undefined });
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    if (!altcha) {
      toast({ variant: 'destructive', ...CAPTCHA_REQUIRED });
      return;
    }
    registerMutation.mutate(result.data);
  }

  const pending = registerMutation.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Create account">
      <div className="grid gap-5 sm:grid-cols-2">
        <Field id="register-first-name" label="First name" error={errors.firstName}>
          <Input
            name="firstName"
            autoComplete="given-name"
            placeholder="Ada"
            value={values.firstName}
            onChange={set('firstName')}
            disabled={pending}
          />
        </Field>
        <Field id="register-last-name" label="Last name" error={errors.lastName}>
          <Input
            name="lastName"
            autoComplete="family-name"
            placeholder="Lovelace"
            value={values.lastName}
            onChange={set('lastName')}
            disabled={pending}
          />
        </Field>
      </div>
      <Field
        id="register-username"
        label="Username"
        error={errors.username}
        hint="At least 3 characters: letters, digits, dot, dash or underscore."
      >
        <Input
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="Choose a username"
          value={values.username}
          onChange={set('username')}
          disabled={pending}
        />
      </Field>
      <Field id="register-email" label="Email" error={errors.email}>
        <Input
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          value={values.email}
          onChange={set('email')}
          disabled={pending}
        />
      </Field>
      <Field id="register-password" label="Password" error={errors.password} hint="At least 6 characters.">
        <PasswordInput
          name="password"
          autoComplete="new-password"
          placeholder="Create a password"
          value={values.password}
          onChange={set('password')}
          disabled={pending}
        />
      </Field>

      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium leading-none">Security verification</span>
        <AltchaField ref={widget} onPayloadChange={setAltcha} id="register-altcha" />
      </div>

      <Button type="submit" size="lg" className="w-full" loading={pending}>
        {pending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
