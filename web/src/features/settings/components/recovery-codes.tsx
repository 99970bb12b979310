// The recovery codes of Settings › Security › Two-Factor Authentication: the fresh codes, shown once (after
// setup or a regeneration) with Copy and Download; otherwise how many are left and 'Regenerate codes' behind
// the password (the old codes stop working).

import { RECOVERY_CODE_COUNT } from '@csp/shared/auth/recovery-codes';
import { Copy, Download, RefreshCw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { copyWithToast } from '@/hooks/copy-with-toast';
import { ApiError } from '@/lib/api-client';
import { downloadText } from '@/lib/download';
import { useRecoveryCodesLeft, useRegenerateRecoveryCodes } from '../api/account';
import { PasswordConfirmDialog, usePasswordPrompt } from './password-confirm-dialog';

/** The codes just issued, shown this once. */
export function FreshRecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = codes.join('\n');

  async function onCopy() {
    await copyWithToast(text, 'the codes', { title: 'Copied', description: 'Copied to clipboard' });
  }

  return (
    <div className="flex flex-col gap-3" data-testid="recovery-codes">
      <Alert tone="warning" title="Save your recovery codes now">
        Each code signs you in once instead of a code from your authenticator app, if you lose your phone.
        They are shown only this once.
      </Alert>
      <ol className="grid grid-cols-1 gap-x-10 gap-y-1 rounded-lg border border-border bg-muted/40 p-3 font-mono text-sm whitespace-nowrap sm:w-fit sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void onCopy()}>
          <Copy aria-hidden="true" />
          Copy
        </Button>
        <Button
          variant="outline"
          onClick={() => downloadText('csp-generator-recovery-codes.txt', `${text}\n`)}
          data-testid="download-recovery-codes"
        >
          <Download aria-hidden="true" />
          Download
        </Button>
        <Button onClick={onDone} data-testid="recovery-codes-saved">
          I have saved them
        </Button>
      </div>
    </div>
  );
}

/** How many codes are left, and new ones behind the password. */
export function RecoveryCodesStatus({ onRegenerated }: { onRegenerated: (codes: string[]) => void }) {
  const left = useRecoveryCodesLeft();
  const regenerate = useRegenerateRecoveryCodes();
  const prompt = usePasswordPrompt();

  function onRegenerate() {
    regenerate.mutate(prompt.password, {
      onSuccess: (data) => {
        prompt.done();
        onRegenerated(data.recoveryCodes);
      },
      onError: (err) =>
        prompt.refused(
          err instanceof ApiError ? err.serverMessage : 'Something went wrong. Please try again.',
        ),
    });
  }

  const count = left.data?.left;
  return (
    <div className="flex flex-col gap-3 border-t border-border pt-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="text-sm">
        <p className="font-medium">Recovery codes</p>
        <p className="text-muted-foreground" data-testid="recovery-codes-left">
          {count === undefined
            ? 'Counting…'
            : `${count} of ${RECOVERY_CODE_COUNT} left${count <= 2 ? ': make new ones before you run out' : ''}`}
        </p>
      </div>
      <Button variant="outline" onClick={prompt.open} data-testid="regenerate-recovery-codes">
        <RefreshCw aria-hidden="true" />
        Regenerate codes
      </Button>
      <PasswordConfirmDialog
        {...prompt.dialog}
        pending={regenerate.isPending}
        title="Regenerate recovery codes"
        description={`You get ${RECOVERY_CODE_COUNT} new codes; the ones you have stop working.`}
        confirmLabel="Regenerate"
        confirmTestId="confirm-regenerate-recovery-codes"
        onConfirm={onRegenerate}
        fieldId="regenerate-codes-password"
      />
    </div>
  );
}
