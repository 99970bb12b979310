// A dialog that asks for the account's password before a sensitive change (turning 2FA off, new recovery
// codes): the password field, Cancel, and the confirming button, which waits for a password. It cannot be
// closed while the change is on its way.
import { type ComponentProps, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';

/**
 * The state of one password prompt: whether it is open, the password typed, the server's refusal (cleared as
 * soon as the user types again). `dialog` goes to PasswordConfirmDialog as it is.
 */
export function usePasswordPrompt() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  return {
    password,
    open: () => setOpen(true),
    /** The change went through: close, and forget the password. */
    done: () => {
      setOpen(false);
      setPassword('');
    },
    refused: setError,
    dialog: {
      open,
      onOpenChange: setOpen,
      password,
      onPasswordChange: (next: string) => {
        setPassword(next);
        setError(undefined);
      },
      error,
    },
  };
}

export function PasswordConfirmDialog({
  open,
  onOpenChange,
  pending,
  title,
  description,
  confirmLabel,
  confirmVariant,
  confirmTestId,
  onConfirm,
  fieldId,
  password,
  onPasswordChange,
  error,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  confirmVariant?: ComponentProps<typeof Button>['variant'];
  confirmTestId: string;
  onConfirm: () => void;
  fieldId: string;
  password: string;
  /** Called with each change of the field; the caller clears its error there. */
  onPasswordChange: (password: string) => void;
  error: string | undefined;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!pending) onOpenChange(next);
      }}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant={confirmVariant}
            onClick={onConfirm}
            disabled={!password}
            loading={pending}
            data-testid={confirmTestId}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      <Field id={fieldId} label="Your password" error={error}>
        <PasswordInput
          value={password}
          onChange={(e) => onPasswordChange(e.target.value)}
          autoComplete="current-password"
        />
      </Field>
    </Dialog>
  );
}
