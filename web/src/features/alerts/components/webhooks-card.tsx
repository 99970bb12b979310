// Where alerts go besides e-mail: the webhooks of a domain's settings or a team's (address, when added, the
// secret's last characters), Add webhook (its secret shown once, webhook-secret-dialog.tsx), Remove behind a
// confirmation, and "Send test", which sends a test alert to every channel and shows each one's result here.
// A team member sees the list only.
import { ALERT_LIMITS, type Webhook, webhookCreateSchema } from '@csp/shared/schemas/alert-settings';
import { Send, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { UrlInput } from '@/components/ui/input';
import { toast } from '@/hooks/use-toast';
import { formatDate } from '@/lib/format';
import { focusFirstInvalid, refusalMessage, validateForm } from '@/lib/validation';
import type { AlertScope } from '../api/alert-scope';
import { useSendTestAlert } from '../api/send-test-alert';
import { useAddWebhook, useRemoveWebhook } from '../api/webhooks';
import { PanelCardTitle } from './panel-card-title';
import { TestAlertResults } from './test-alert-results';
import { type AddedWebhook, WebhookSecretDialog } from './webhook-secret-dialog';

export function WebhooksCard({
  scope,
  webhooks,
  readOnly,
  people,
}: {
  scope: AlertScope;
  webhooks: readonly Webhook[];
  readOnly: boolean;
  /** Team members' names by id, for the results of a team's "Send test". */
  people?: ReadonlyMap<string, string>;
}) {
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const remove = useRemoveWebhook(scope);
  const test = useSendTestAlert(scope);
  const full = webhooks.length >= ALERT_LIMITS.webhooksPerDomain;
  const holder = scope.kind === 'domain' ? 'domain' : 'team';

  function onRemove(webhook: Webhook) {
    remove.mutate(webhook.id, {
      onSuccess: () => {
        setRemoving(null);
        toast({ title: 'Webhook removed', description: `${webhook.url} gets no more alerts.` });
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: 'Error',
          description: refusalMessage(error) ?? 'Failed to remove the webhook. Please try again.',
        }),
    });
  }

  return (
    <Card data-testid="alert-webhooks">
      <CardHeader
        actions={
          readOnly ? null : (
            <Button
              variant="outline"
              size="sm"
              loading={test.isPending}
              onClick={() => test.mutate()}
              data-testid="send-test-alert"
            >
              {test.isPending ? null : <Send aria-hidden="true" />}
              {test.isPending ? 'Sending...' : 'Send test'}
            </Button>
          )
        }
      >
        <PanelCardTitle>Webhooks</PanelCardTitle>
        <CardDescription>
          Each alert is POSTed as JSON that Slack's incoming webhooks take as it is, signed so the receiver
          can tell it comes from us. Up to {ALERT_LIMITS.webhooksPerDomain} per {holder}.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {test.data ? (
          <TestAlertResults results={test.data.results} webhooks={webhooks} people={people} />
        ) : null}
        {test.error ? (
          <Alert tone="error" role="alert" testId="test-alert-error">
            {refusalMessage(test.error) ?? 'The test alert could not be sent. Please try again.'}
          </Alert>
        ) : null}
        {webhooks.length === 0 ? (
          <EmptyState
            icon={WebhookIcon}
            title="No webhooks yet"
            description={
              readOnly
                ? 'The owner has not added any.'
                : 'Add the address of a receiver, such as a Slack incoming webhook.'
            }
          />
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {webhooks.map((w) => (
              <li
                key={w.id}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start sm:justify-between"
                data-testid="webhook"
              >
                <div className="flex min-w-0 flex-col gap-1">
                  <span className="font-mono text-xs break-all" data-testid="webhook-url">
                    {w.url}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    Added {formatDate(w.createdAt)} · secret …{w.secretHint}
                  </span>
                </div>
                {readOnly ? null : (
                  <Button
                    variant="outline"
                    size="sm"
                    className="self-start text-destructive"
                    onClick={() => setRemoving(w)}
                    aria-label={`Remove ${w.url}`}
                    data-testid="remove-webhook"
                  >
                    <Trash2 aria-hidden="true" />
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {readOnly ? null : full ? (
          <p className="text-sm text-muted-foreground">
            This {holder} has {ALERT_LIMITS.webhooksPerDomain} webhooks, the most it can have: remove one to
            add another.
          </p>
        ) : (
          <AddWebhookForm scope={scope} />
        )}
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open && !remove.isPending) setRemoving(null);
        }}
        title="Remove webhook"
        description={
          removing
            ? `Remove ${removing.url}? It gets no more alerts, and its secret stops working for good.`
            : ''
        }
        confirmLabel="Remove"
        destructive
        pending={remove.isPending}
        onConfirm={() => {
          if (removing) onRemove(removing);
        }}
      />
    </Card>
  );
}

function AddWebhookForm({ scope }: { scope: AlertScope }) {
  const add = useAddWebhook(scope);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [added, setAdded] = useState<AddedWebhook | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = validateForm(webhookCreateSchema, { url: url.trim() });
    if (!result.success) {
      setError(result.errors.url ?? result.errors.form);
      focusFirstInvalid(form);
      return;
    }
    setError(undefined);
    add.mutate(result.data.url, {
      onSuccess: (data) => {
        setAdded({ url: data.webhook.url, secret: data.secret });
        // The answer stays nowhere but in `added`.
        add.reset();
        setUrl('');
      },
      onError: (err) => {
        // A refused address (400) or the limit (409) says why; anything else is ours to say.
        setError(refusalMessage(err) ?? 'Failed to add the webhook. Please try again.');
        focusFirstInvalid(form);
      },
    });
  }

  return (
    <>
      <form
        onSubmit={onSubmit}
        noValidate
        className="flex flex-col gap-2 sm:flex-row sm:items-start"
        aria-label="Add webhook"
      >
        <Field id="webhook-url" label="Webhook URL" error={error} className="min-w-0 flex-1">
          <UrlInput
            name="url"
            value={url}
            maxLength={ALERT_LIMITS.webhookUrlChars}
            placeholder="https://hooks.example.com/csp"
            onChange={(e) => {
              setUrl(e.target.value);
              setError(undefined);
            }}
            data-testid="webhook-url-input"
          />
        </Field>
        <Button type="submit" loading={add.isPending} className="sm:mt-7" data-testid="add-webhook">
          {add.isPending ? 'Adding...' : 'Add webhook'}
        </Button>
      </form>
      <WebhookSecretDialog added={added} onClose={() => setAdded(null)} />
    </>
  );
}
