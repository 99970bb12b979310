// /invite/{token}: the invited person's side. Signed in (the route is protected, and sign-in comes back
// here), they see the team, who invited them, the address and the expiry, and accept — or read why they
// cannot (expired, revoked, used, full, another address, already in a team).
import { Users } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useAcceptInvitation, useInvitationPreview } from '../api/teams';

export function InvitationScreen({ token }: { token: string }) {
  const navigate = useNavigate();
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation(token);

  if (preview.isLoading) {
    return (
      <LoadingBlock className="mx-auto w-full max-w-lg" label="Loading the invitation...">
        <Skeleton className="h-56 w-full rounded-xl" />
      </LoadingBlock>
    );
  }

  const notValid = preview.error instanceof ApiError && preview.error.status === 404;
  const p = preview.data;
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col gap-6">
      <Card data-testid="invitation">
        <CardHeader>
          <span className="mb-2 flex size-10 items-center justify-center rounded-full bg-primary-soft text-primary">
            <Users className="size-5" aria-hidden="true" />
          </span>
          <CardTitle>{p ? `Join ${p.teamName}` : 'Team invitation'}</CardTitle>
          {p ? (
            <CardDescription>
              {p.invitedBy} invited {p.email} to the team. Members see the team owner's domains, analyses,
              configurations and reports, read-only.
            </CardDescription>
          ) : null}
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {preview.error ? (
            <Alert tone="error" role="alert">
              {notValid
                ? 'This invitation link is not valid.'
                : `Could not load the invitation (${preview.error.message}).`}
            </Alert>
          ) : p ? (
            <>
              <dl className="grid gap-3 text-sm sm:grid-cols-2">
                <div>
                  <dt className="text-xs text-muted-foreground">Invited address</dt>
                  <dd className="mt-1 [overflow-wrap:anywhere]">{p.email}</dd>
                </div>
                <div>
                  <dt className="text-xs text-muted-foreground">Expires</dt>
                  <dd className="mt-1">{formatDate(p.expiresAt)}</dd>
                </div>
              </dl>
              {p.problem ? (
                <Alert tone="warning" role="alert" testId="invitation-problem">
                  {p.problem}
                </Alert>
              ) : null}
              <div className="flex flex-wrap gap-2">
                {p.problem ? null : (
                  <Button
                    loading={accept.isPending}
                    onClick={() =>
                      accept.mutate(undefined, {
                        onSuccess: (team) => {
                          toast({
                            title: 'Joined team',
                            description: `You are now a member of ${team?.name}.`,
                          });
                          navigate('/settings?tab=team', { replace: true });
                        },
                        onError: (error) => {
                          void preview.refetch();
                          toast({
                            variant: 'destructive',
                            title: 'Error',
                            description: (error instanceof ApiError && error.serverMessage) || error.message,
                          });
                        },
                      })
                    }
                  >
                    {accept.isPending ? 'Accepting...' : 'Accept invitation'}
                  </Button>
                )}
                <Link to="/dashboard" className={buttonVariants({ variant: 'outline' })}>
                  {p.problem ? 'Back to Dashboard' : 'Decline'}
                </Link>
              </div>
            </>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
