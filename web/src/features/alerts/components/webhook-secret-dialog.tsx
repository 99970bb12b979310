// The secret of a webhook just added, shown this once with Copy, and how a receiver checks a delivery with
// it. The secret lives only in the state of whoever opened this dialog: closing it forgets it.
import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { copyWithToast } from '@/hooks/copy-with-toast';

export interface AddedWebhook {
  url: string;
  secret: string;
}

export function WebhookSecretDialog({ added, onClose }: { added: AddedWebhook | null; onClose: () => void }) {
  return (
    <Dialog
      open={added !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Webhook added"
      description={
        added ? (
          <>
            Alerts are sent to <span className="break-all font-medium text-foreground">{added.url}</span>,
            signed with this secret. Copy it now into the receiver's settings.
          </>
        ) : null
      }
      footer={
        <Button onClick={onClose} data-testid="webhook-secret-done">
          Done
        </Button>
      }
    >
      {added ? <SecretValue secret={added.secret} /> : null}
    </Dialog>
  );
}

function SecretValue({ secret }: { secret: string }) {
  const field = useRef<HTMLTextAreaElement>(null);
  // The value is what the user came for: focused and selected, ready to copy.
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  // The toast shows under the modal's backdrop: the button says it too.
  const [copied, setCopied] = useState(false);

  return (
    <div className="flex flex-col gap-4" data-testid="webhook-secret">
      <Alert tone="warning" title="This is the only time the secret is shown">
        If you lose it, remove the webhook and add it again: the new one gets a new secret.
      </Alert>
      <div className="flex flex-col gap-2">
        <Label htmlFor="webhook-secret-value">Signing secret</Label>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <Textarea
            id="webhook-secret-value"
            ref={field}
            value={secret}
            readOnly
            rows={2}
            spellCheck={false}
            className="min-w-0 resize-none font-mono text-xs break-all"
            data-testid="webhook-secret-value"
          />
          <Button
            variant="outline"
            className="self-start"
            onClick={() => void copyWithToast(secret, 'the secret').then((ok) => ok && setCopied(true))}
            data-testid="copy-webhook-secret"
          >
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-1.5 text-sm text-muted-foreground" data-testid="webhook-verify-help">
        <p className="font-medium text-foreground">How to verify a delivery</p>
        <p>Each POST carries the header</p>
        <code className="rounded bg-muted px-2 py-1 font-mono text-xs break-all text-foreground">
          X-CSP-Generator-Signature: t=…,v1=…
        </code>
        <p>
          <span className="font-mono text-xs">v1</span> is the hex HMAC-SHA256 of{' '}
          <span className="font-mono text-xs">"t.body"</span> (the timestamp, a dot, then the raw body as
          received), keyed with this secret. Compute it, compare in constant time, and refuse a{' '}
          <span className="font-mono text-xs">t</span> more than 5 minutes from your clock.
        </p>
      </div>
    </div>
  );
}
