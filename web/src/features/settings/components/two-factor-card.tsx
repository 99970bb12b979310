// Settings › Security › Two-Factor Authentication (spec sections 2, 4, 8): 'Setup 2FA' → the QR code (drawn by
// the server, never by a third party) and the manual key with a copy button → a 6-character code → Verify
// (enabled at exactly 6), or Cancel (the setup is abandoned, 2FA stays off). Once verified, the recovery codes,
// shown this once. When on: '2FA Enabled' and 'Disable 2FA' behind the spec's confirmation, which also asks for
// the password (the server needs it or a code), and the recovery codes left (recovery-codes.tsx).

import type { PublicUser } from '@csp/shared/schemas/auth';
import { Copy, ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { copyWithToast } from '@/hooks/copy-with-toast';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import {
  useCancelTwoFactorSetup,
  useDisableTwoFactor,
  useSetupTwoFactor,
  useVerifyTwoFactor,
} from '../api/account';
import { PasswordConfirmDialog, usePasswordPrompt } from './password-confirm-dialog';
import { FreshRecoveryCodes, RecoveryCodesStatus } from './recovery-codes';

const CODE_LENGTH = 6;

export function TwoFactorCard({ user }: { user: PublicUser }) {
  // The codes just issued live here, not in <Setup>: enabling swaps <Setup> for <Enabled>, which shows them.
  const [freshCodes, setFreshCodes] = useState<string[] | null>(null);
  return (
    <Card data-testid="two-factor">
      <CardHeader>
        <CardTitle>Two-Factor Authentication</CardTitle>
        <CardDescription>
          A code from an authenticator app at every sign-in, besides your password.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {user.twoFactorEnabled ? (
          <div className="flex flex-col gap-4">
            <Enabled />
            {freshCodes ? (
              <FreshRecoveryCodes codes={freshCodes} onDone={() => setFreshCodes(null)} />
            ) : (
              <RecoveryCodesStatus onRegenerated={setFreshCodes} />
            )}
          </div>
        ) : (
          <Setup onEnabled={setFreshCodes} />
        )}
      </CardContent>
    </Card>
  );
}

function Setup({ onEnabled }: { onEnabled: (recoveryCodes: string[]) => void }) {
  const setup = useSetupTwoFactor();
  const verify = useVerifyTwoFactor();
  const cancel = useCancelTwoFactorSetup();
  const [code, setCode] = useState('');

  function onCancel() {
    cancel.mutate(undefined, {
      onSuccess: () => {
        setup.reset();
        verify.reset();
        setCode('');
        toast({ title: '2FA setup cancelled', description: 'Two-factor authentication stays off.' });
      },
      onError: (err) => {
        toast({
          variant: 'destructive',
          title: 'Error',
          description:
            err instanceof ApiError && err.serverMessage
              ? err.serverMessage
              : 'Failed to cancel. Please try again.',
        });
      },
    });
  }

  function onSetup() {
    setup.mutate(undefined, {
      onError: () => {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Failed to setup 2FA. Please try again.',
        });
      },
    });
  }

  function onVerify() {
    verify.mutate(code, {
      onSuccess: (data) => {
        onEnabled(data.recoveryCodes);
        setup.reset();
        setCode('');
        toast({
          title: '2FA enabled',
          description: 'Two-factor authentication has been enabled successfully.',
        });
      },
      onError: () => {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Invalid verification code. Please try again.',
        });
      },
    });
  }

  async function onCopy(secret: string) {
    await copyWithToast(secret, 'the key', { title: 'Copied', description: 'Text copied to clipboard.' });
  }

  const data = setup.data;
  if (!data) {
    return (
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">Two-factor authentication is off.</p>
        <Button onClick={onSetup} loading={setup.isPending} data-testid="setup-2fa">
          {setup.isPending ? 'Setting up...' : 'Setup 2FA'}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <img
          src={data.qrCodeUrl}
          alt="QR code to scan with an authenticator app"
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-lg border border-border bg-white p-1"
          data-testid="qr-code"
        />
        <div className="flex min-w-0 flex-col gap-3">
          <p className="text-sm text-muted-foreground">
            Scan the code with an authenticator app, or enter the key by hand. Then type the 6-digit code it
            shows.
          </p>
          <Field id="manual-key" label="Manual entry key">
            <div className="flex gap-2">
              <Input value={data.secret} readOnly className="font-mono text-xs" data-testid="manual-key" />
              <Button variant="outline" onClick={() => void onCopy(data.secret)} aria-label="Copy the key">
                <Copy aria-hidden="true" />
              </Button>
            </div>
          </Field>
        </div>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <Field id="two-factor-code" label="Verification code" className="sm:w-48">
          <Input
            value={code}
            onChange={(e) => setCode(e.target.value.slice(0, CODE_LENGTH))}
            maxLength={CODE_LENGTH}
            inputMode="numeric"
            autoComplete="one-time-code"
            className="font-mono tracking-widest"
            data-testid="two-factor-code"
          />
        </Field>
        <Button
          onClick={onVerify}
          disabled={code.length !== CODE_LENGTH}
          loading={verify.isPending}
          data-testid="verify-2fa"
        >
          {verify.isPending ? 'Verifying...' : 'Verify'}
        </Button>
        <Button
          variant="ghost"
          onClick={onCancel}
          disabled={verify.isPending}
          loading={cancel.isPending}
          data-testid="cancel-2fa-setup"
        >
          Cancel
        </Button>
      </div>
    </div>
  );
}

function Enabled() {
  const disable = useDisableTwoFactor();
  const prompt = usePasswordPrompt();

  function onDisable() {
    disable.mutate(
      { password: prompt.password },
      {
        onSuccess: () => {
          prompt.done();
          toast({ title: '2FA disabled', description: 'Two-factor authentication has been disabled.' });
        },
        onError: (err) => {
          prompt.refused(err instanceof ApiError ? err.serverMessage : undefined);
          toast({
            variant: 'destructive',
            title: 'Error',
            description: 'Failed to disable 2FA. Please try again.',
          });
        },
      },
    );
  }

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <Badge variant="success" className="self-start" data-testid="two-factor-enabled">
        <ShieldCheck className="size-3" aria-hidden="true" />
        2FA Enabled
      </Badge>
      <Button variant="outline" className="text-destructive" onClick={prompt.open} data-testid="disable-2fa">
        <ShieldOff aria-hidden="true" />
        Disable 2FA
      </Button>
      <PasswordConfirmDialog
        {...prompt.dialog}
        pending={disable.isPending}
        title="Disable 2FA"
        description="Are you sure you want to disable 2FA? This will make your account less secure."
        confirmLabel="Disable 2FA"
        confirmVariant="destructive"
        confirmTestId="confirm-disable-2fa"
        onConfirm={onDisable}
        fieldId="disable-2fa-password"
      />
    </div>
  );
}
