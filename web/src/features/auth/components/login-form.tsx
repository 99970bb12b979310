// Sign-in form (spec "Login page"): username, password and the verification widget; 'Sign In' /
// 'Signing in...'. When the account has two-factor authentication, the server answers 401
// {twoFactorRequired: true}; a second step asks for the 6-digit code and resends the sign-in with `totp`, or,
// after 'Use a recovery code', with `recoveryCode` (the server remembers for a few minutes that the first step
// passed, so no second proof-of-work).
import { loginSchema, type PublicUser } from '@csp/shared/schemas/auth';
import { ArrowLeft, KeyRound } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors, validateForm } from '@/lib/validation';
import { isTwoFactorRequired, useLogin } from '../api/login';
import { AltchaField, type AltchaFieldHandle } from './altcha-field';

export const CAPTCHA_REQUIRED = {
  title: 'CAPTCHA Required',
  description: 'Please complete the security verification first',
} as const;

type Step = 'credentials' | 'totp';
/** What the second step asks for: the authenticator app's code, or one of the recovery codes. */
type CodeKind = 'totp' | 'recovery';

export function LoginForm({ onSuccess }: { onSuccess: (user: PublicUser) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [codeKind, setCodeKind] = useState<CodeKind>('totp');
  const [altcha, setAltcha] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [step, setStep] = useState<Step>('credentials');
  const widget = useRef<AltchaFieldHandle>(null);
  const totpInput = useRef<HTMLInputElement>(null);

  const loginMutation = useLogin({
    onSuccess: (user) => {
      toast({ title: 'Login successful', description: 'Welcome back!' });
      onSuccess(user);
    },
    onError: (error) => {
      if (isTwoFactorRequired(error) && step === 'credentials') {
        setStep('totp');
        setAltcha(null);
        setErrors({});
        setTimeout(() => totpInput.current?.focus(), 0);
        return;
      }
      // The solution was spent on this attempt (the server accepts each one once).
      widget.current?.reset();
      setAltcha(null);
      // The second step is over (expired, used, or too many wrong codes): start again with the password.
      const over =
        error instanceof ApiError && (error.status === 400 || error.body?.twoFactorRequired === false);
      if (step === 'totp' && over) backToCredentials();
      setErrors(serverFieldErrors(error));
      toast({ variant: 'destructive', title: 'Login failed', description: loginFailureText(error, step) });
    },
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = {
      username,
      password,
      totp: step === 'totp' && codeKind === 'totp' ? totp.trim() : undefined,
      recoveryCode: step === 'totp' && codeKind === 'recovery' ? totp.trim() : undefined,
    };
    const result = validateForm(loginSchema, values);
    if (!result.success) {
      setErrors(result.errors);
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setErrors({});
    if (step !== 'credentials') {
      loginMutation.mutate(result.data);
      return;
    }
    // The widget has been solving since the form appeared: usually done, else this waits for it.
    setVerifying(true);
    const payload = altcha ?? (await widget.current?.solution()) ?? null;
    setVerifying(false);
    if (!payload) {
      toast({ variant: 'destructive', ...CAPTCHA_REQUIRED });
      return;
    }
    loginMutation.mutate({ ...result.data, altcha: payload });
  }

  function switchCodeKind() {
    setCodeKind(codeKind === 'totp' ? 'recovery' : 'totp');
    setTotp('');
    setErrors({});
    setTimeout(() => totpInput.current?.focus(), 0);
  }

  function backToCredentials() {
    setStep('credentials');
    setCodeKind('totp');
    setTotp('');
    setAltcha(null);
    setErrors({});
  }

  const pending = loginMutation.isPending || verifying;
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-5" aria-label="Sign in">
      {step === 'credentials' ? (
        <>
          <Field id="login-username" label="Username" error={errors.username}>
            <Input
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="Enter your username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              disabled={pending}
            />
          </Field>
          <Field id="login-password" label="Password" error={errors.password}>
            <PasswordInput
              name="password"
              autoComplete="current-password"
              placeholder="Enter your password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={pending}
            />
          </Field>
        </>
      ) : (
        <div className="flex flex-col gap-4">
          <div className="flex items-start gap-3 rounded-lg border border-primary/20 bg-primary-soft p-3 text-sm">
            <KeyRound className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            <p className="text-slate-700">
              Two-factor authentication is on for <span className="font-medium">{username}</span>.{' '}
              {codeKind === 'totp'
                ? 'Enter the 6-digit code from your authenticator app.'
                : 'Enter one of your recovery codes. Each works once.'}
            </p>
          </div>
          {codeKind === 'totp' ? (
            <Field id="login-totp" label="Authentication code" error={errors.totp}>
              <Input
                ref={totpInput}
                name="totp"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                maxLength={6}
                placeholder="123456"
                className="font-mono tracking-[0.4em]"
                value={totp}
                onChange={(e) => setTotp(e.target.value.replace(/\D/g, '').slice(0, 6))}
                disabled={pending}
              />
            </Field>
          ) : (
            <Field id="login-recovery-code" label="Recovery code" error={errors.recoveryCode}>
              <Input
                ref={totpInput}
                name="recoveryCode"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={24}
                placeholder="XXXX-XXXX-XXXX-XXXX"
                className="font-mono tracking-wider"
                value={totp}
                onChange={(e) => setTotp(e.target.value)}
                disabled={pending}
              />
            </Field>
          )}
          <Button
            variant="link"
            size="sm"
            className="self-start"
            onClick={switchCodeKind}
            disabled={pending}
            data-testid="switch-code-kind"
          >
            {codeKind === 'totp'
              ? 'Lost your phone? Use a recovery code'
              : 'Use a code from your authenticator app'}
          </Button>
        </div>
      )}

      {step === 'credentials' ? (
        <div className="flex flex-col gap-2">
          <span className="text-sm font-medium leading-none">Security verification</span>
          <AltchaField ref={widget} onPayloadChange={setAltcha} id="login-altcha" />
        </div>
      ) : null}

      <Button type="submit" size="lg" className="w-full" loading={pending}>
        {pending ? 'Signing in...' : 'Sign In'}
      </Button>

      {step === 'totp' ? (
        <Button
          variant="ghost"
          size="sm"
          className="self-center"
          onClick={backToCredentials}
          disabled={pending}
        >
          <ArrowLeft aria-hidden="true" />
          Use a different account
        </Button>
      ) : null}
    </form>
  );
}

function loginFailureText(error: Error, step: Step): string {
  if (error instanceof ApiError) {
    if (error.status === 401 && step === 'credentials') return 'Invalid username or password';
    if (error.status === 401) return error.serverMessage ?? 'Invalid verification code. Please try again.';
    // 400 (e.g. the verification failed or was replayed) and 429 (too many attempts) carry a useful message.
    if (error.serverMessage) return error.serverMessage;
  }
  return 'Invalid username or password';
}
