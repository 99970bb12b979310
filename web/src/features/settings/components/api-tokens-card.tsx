// Settings › API tokens: what a token is for, the user's tokens (name, scopes, the visible start of the
// value, created, last used, expiry) each with Revoke behind a confirmation that names it, and 'Create token'
// (create-api-token-dialog.tsx). The list never holds a token's value: the server keeps only its hash.
import type { ApiToken } from '@csp/shared/schemas/api-token';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { formatDate, formatDateTime } from '@/lib/format';
import { refusalMessage } from '@/lib/validation';
import { useApiTokens, useRevokeApiToken } from '../api/api-tokens';
import { CreateApiTokenDialog } from './create-api-token-dialog';

export function ApiTokensCard() {
  const tokens = useApiTokens();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const revoke = useRevokeApiToken();
  // The list changes under the dialogs (a first token replaces the empty state, a revoked one leaves): focus
  // goes back to 'Create token', which is always there, rather than to the page's start.
  const createButtonId = useId();
  const refocus = () => requestAnimationFrame(() => document.getElementById(createButtonId)?.focus());

  function onRevoke(token: ApiToken) {
    revoke.mutate(token.id, {
      onSuccess: () => {
        setRevoking(null);
        refocus();
        toast({ title: 'Token revoked', description: `“${token.name}” no longer works.` });
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: refusalMessage(error) ?? 'Failed to revoke the token. Please try again.',
        });
      },
    });
  }

  const create = (
    <Button id={createButtonId} onClick={() => setCreating(true)} data-testid="create-api-token">
      <Plus aria-hidden="true" />
      Create token
    </Button>
  );

  return (
    <Card data-testid="api-tokens">
      <CardHeader>
        <CardTitle>API tokens</CardTitle>
        <CardDescription>
          A token lets a script or a deploy pipeline use the API as you, within the scopes you give it: send
          it in the header{' '}
          <code className="font-mono text-xs break-all">Authorization: Bearer &lt;token&gt;</code>. It cannot
          change your account, manage tokens or open admin pages. Its value is shown once, when you create it.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {tokens.isPending ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading your API tokens...">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </LoadingBlock>
        ) : tokens.isError ? (
          <Alert tone="error" role="alert" title="Could not load your API tokens">
            <div className="flex flex-col items-start gap-2">
              <span>Please try again.</span>
              <Button variant="outline" size="sm" onClick={() => void tokens.refetch()}>
                Try again
              </Button>
            </div>
          </Alert>
        ) : !tokens.data?.length ? (
          <EmptyState
            icon={KeyRound}
            title="No API tokens yet"
            description="Create one for each script or pipeline, so you can revoke one without the others."
            action={create}
          />
        ) : (
          <>
            <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
              {tokens.data.map((token) => (
                <TokenRow key={token.id} token={token} onRevoke={() => setRevoking(token)} />
              ))}
            </ul>
            <div>{create}</div>
          </>
        )}
      </CardContent>
      <CreateApiTokenDialog
        open={creating}
        onOpenChange={(open) => {
          setCreating(open);
          if (!open) refocus();
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => {
          if (!open && !revoke.isPending) setRevoking(null);
        }}
        title="Revoke API token"
        description={
          revoking
            ? `Revoke “${revoking.name}”? Every request made with it is refused from now on. This cannot be undone.`
            : ''
        }
        confirmLabel="Revoke"
        destructive
        pending={revoke.isPending}
        onConfirm={() => {
          if (revoking) onRevoke(revoking);
        }}
      />
    </Card>
  );
}

function TokenRow({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();
  return (
    <li
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between"
      data-testid="api-token"
    >
      <div className="flex min-w-0 flex-col gap-2">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <p className="font-medium break-words" data-testid="api-token-name">
            {token.name}
          </p>
          <code className="font-mono text-xs text-muted-foreground" data-testid="api-token-hint">
            {token.hint}
          </code>
        </div>
        <ul className="flex flex-wrap gap-1.5" aria-label="Scopes">
          {token.scopes.map((scope) => (
            <li key={scope}>
              <Badge variant="secondary" className="font-mono">
                {scope}
              </Badge>
            </li>
          ))}
        </ul>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-muted-foreground sm:flex sm:flex-wrap sm:gap-x-4">
          <div className="contents sm:flex sm:gap-1">
            <dt>Created</dt>
            <dd className="text-foreground">{formatDate(token.createdAt)}</dd>
          </div>
          <div className="contents sm:flex sm:gap-1">
            <dt>Last used</dt>
            <dd className="text-foreground" data-testid="api-token-last-used">
              {formatDateTime(token.lastUsedAt, 'Never used')}
            </dd>
          </div>
          <div className="contents sm:flex sm:gap-1">
            <dt>Expires</dt>
            <dd
              className={expired ? 'font-medium text-destructive' : 'text-foreground'}
              data-testid="api-token-expires"
            >
              {expired ? `Expired on ${formatDate(token.expiresAt)}` : formatDate(token.expiresAt, 'Never')}
            </dd>
          </div>
        </dl>
      </div>
      <Button
        variant="outline"
        size="sm"
        className="self-start text-destructive"
        onClick={onRevoke}
        aria-label={`Revoke ${token.name}`}
        data-testid="revoke-api-token"
      >
        <Trash2 aria-hidden="true" />
        Revoke
      </Button>
    </li>
  );
}
