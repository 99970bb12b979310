// What was sent for the alerts, newest first: to which channel, its state (pending, delivered, failed),
// the tries made, when the next one is due, and the last error a receiver or the mail server gave.
import { ALERT_KIND_TITLES } from '@csp/shared/alerts/alert';
import type { AlertDelivery, Webhook } from '@csp/shared/schemas/alert-settings';
import { Inbox } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import { formatCount, formatDateTime } from '@/lib/format';
import { useAlertDeliveries } from '../api/get-alerts';
import { channelName } from './channel-name';
import { PanelCardTitle } from './panel-card-title';

const STATUS_BADGES: Record<AlertDelivery['status'], { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Pending', variant: 'info' },
  delivered: { label: 'Delivered', variant: 'success' },
  failed: { label: 'Failed', variant: 'destructive' },
};

export function AlertDeliveriesCard({
  domainId,
  webhooks,
}: {
  domainId: string;
  webhooks: readonly Webhook[];
}) {
  const deliveries = useAlertDeliveries(domainId);
  return (
    <Card data-testid="alert-deliveries">
      <CardHeader>
        <PanelCardTitle>Deliveries</PanelCardTitle>
        <CardDescription>
          A webhook that does not answer 2xx is tried again after 1 min, 5 min, 30 min and 2 h.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {deliveries.isPending ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading the deliveries...">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </LoadingBlock>
        ) : deliveries.isError ? (
          <Alert tone="error" role="alert" title="Could not load the deliveries">
            <Button variant="outline" size="sm" onClick={() => void deliveries.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : deliveries.data.length === 0 ? (
          <EmptyState icon={Inbox} title="Nothing sent yet" description="Send test to try every channel." />
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {deliveries.data.map((d) => (
              <DeliveryRow key={d.id} delivery={d} webhooks={webhooks} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function DeliveryRow({ delivery: d, webhooks }: { delivery: AlertDelivery; webhooks: readonly Webhook[] }) {
  const badge = STATUS_BADGES[d.status];
  const target = channelName(d, webhooks);
  return (
    <li className="flex flex-col gap-1.5 p-3 text-sm" data-testid="delivery-row">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={badge.variant} data-testid="delivery-status">
          {badge.label}
        </Badge>
        <span className="font-medium">{ALERT_KIND_TITLES[d.kind]}</span>
        <span className="text-xs text-muted-foreground">{formatDateTime(d.createdAt)}</span>
      </div>
      <p className="truncate text-muted-foreground" title={d.summary}>
        {d.summary}
      </p>
      <p className={cn('truncate text-xs', d.channel === 'webhook' && 'font-mono')} title={target}>
        {target}
      </p>
      <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted-foreground">
        <div className="flex gap-1">
          <dt>Tries</dt>
          <dd className="text-foreground">{formatCount(d.attempts)}</dd>
        </div>
        {d.status === 'pending' && d.nextAttemptAt ? (
          <div className="flex gap-1">
            <dt>Next try</dt>
            <dd className="text-foreground">
              {/* Past its time, it goes with the sender's next round (every minute or few). */}
              {Date.parse(d.nextAttemptAt) <= Date.now() ? 'due now' : formatDateTime(d.nextAttemptAt)}
            </dd>
          </div>
        ) : null}
        {d.lastStatus !== null ? (
          <div className="flex gap-1">
            <dt>Last answer</dt>
            <dd className="text-foreground">HTTP {d.lastStatus}</dd>
          </div>
        ) : null}
      </dl>
      {d.lastError && d.status !== 'delivered' ? (
        <p className="break-words text-xs text-destructive" data-testid="delivery-error">
          {d.lastError}
        </p>
      ) : null}
    </li>
  );
}
