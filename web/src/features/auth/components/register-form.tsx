// Create-account form: username, email, password, first and last name, and the verification widget.
import { type PublicUser, registerSchema } from '@csp/shared/schemas/auth';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/hooks/use-toast';
import { type FieldErrors, focusFirstInvalid, serverFormErrors, validateForm } from '@/lib/validation';
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
  const [verifying, setVerifying] = useState(false);
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
      // Spec: the toast is always the same; the form says what to change, at the field the server names (a
      // taken username; whether an email has an account is never told), else above the button.
      setErrors(serverFormErrors(error));
      toast({ variant: 'destructive', title: 'Registration failed', description: REGISTRATION_FAILED });
    },
  });

  const set = (field: keyof typeof values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = validateForm(registerSchema, values);
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    // The widget has been solving since the form appeared: usually done, else this waits for it.
    setVerifying(true);
    const payload = altcha ?? (await widget.current?.solution()) ?? null;
    setVerifying(false);
    if (!payload) {
      toast({ variant: 'destructive', ...CAPTCHA_REQUIRED });
      return;
    }
    registerMutation.mutate({ ...result.data, altcha: payload });
  }

  const pending = registerMutation.isPending || verifying;
  return (
    <form
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      className="flex flex-col gap-5"
      aria-label="Create account"
    >
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

      <FormError message={errors.form} />
      <Button type="submit" size="lg" className="w-full" loading={pending}>
        {pending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
