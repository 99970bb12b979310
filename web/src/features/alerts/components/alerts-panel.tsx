// The alerts of a domain (its Monitoring section): for a team's domain whether it uses the team's alert
// settings, what alerts and whether the owner is e-mailed, the webhooks with "Send test", the alerts raised
// and what was sent for them. `readOnly`: a member of the
// owner's team reads all of it and changes nothing (the server refuses them anyway).
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { domainScope } from '../api/alert-scope';
import { useAlertSettings } from '../api/alert-settings';
import { AlertDeliveriesCard } from './alert-deliveries-card';
import { AlertSettingsCard } from './alert-settings-card';
import { AlertSourceCard } from './alert-source-card';
import { RecentAlertsCard } from './recent-alerts-card';
import { WebhooksCard } from './webhooks-card';

export function AlertsPanel({ domainId, readOnly }: { domainId: string; readOnly: boolean }) {
  const settings = useAlertSettings(domainId);
  return (
    <div className="grid min-w-0 items-start gap-6 lg:grid-cols-2" data-testid="alerts-panel">
      <div className="flex min-w-0 flex-col gap-6">
        {settings.isPending ? (
          <LoadingBlock className="flex flex-col gap-6" label="Loading the alert settings...">
            <Skeleton className="h-96 w-full rounded-xl" />
            <Skeleton className="h-48 w-full rounded-xl" />
          </LoadingBlock>
        ) : settings.isError || !settings.data ? (
          <Alert tone="error" role="alert" title="Could not load the alert settings">
            <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : (
          <>
            {readOnly ? (
              <Alert tone="info" testId="alerts-read-only">
                Only the domain's owner can change its alerts.
              </Alert>
            ) : null}
            {settings.data.team ? (
              <AlertSourceCard domainId={domainId} choice={settings.data} readOnly={readOnly} />
            ) : null}
            <AlertSettingsCard domainId={domainId} settings={settings.data} readOnly={readOnly} />
            <WebhooksCard
              scope={domainScope(domainId)}
              webhooks={settings.data.webhooks}
              readOnly={readOnly}
            />
          </>
        )}
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        <RecentAlertsCard domainId={domainId} />
        <AlertDeliveriesCard domainId={domainId} webhooks={settings.data?.webhooks ?? []} />
      </div>
    </div>
  );
}
