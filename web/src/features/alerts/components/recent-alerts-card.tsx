// The alerts raised for the domain, most recently seen first: what (the kind's title), the summary, how
// many times since when, and a link to the screen that explains it when that is not this one.
import { ALERT_KIND_TITLES, type RaisedAlert } from '@csp/shared/alerts/alert';
import { BellOff } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount, formatDateTime } from '@/lib/format';
import { useAlerts } from '../api/get-alerts';
import { PanelCardTitle } from './panel-card-title';

export function RecentAlertsCard({ domainId }: { domainId: string }) {
  const alerts = useAlerts(domainId);
  return (
    <Card data-testid="recent-alerts">
      <CardHeader>
        <PanelCardTitle>Recent alerts</PanelCardTitle>
        <CardDescription>One line per cause, however often it was raised.</CardDescription>
      </CardHeader>
      <CardContent>
        {alerts.isPending ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading the alerts...">
            <Skeleton className="h-16 w-full" />
            <Skeleton className="h-16 w-full" />
          </LoadingBlock>
        ) : alerts.isError ? (
          <Alert tone="error" role="alert" title="Could not load the alerts">
            <Button variant="outline" size="sm" onClick={() => void alerts.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : alerts.data.length === 0 ? (
          <EmptyState
            icon={BellOff}
            title="No alerts yet"
            description="When something you chose to be alerted about happens, it is listed here."
          />
        ) : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
            {alerts.data.map((a) => (
              <AlertRow key={a.id} alert={a} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** "3 times since 2 Mar 2026, 10:04", or "Raised 2 Mar 2026, 10:04" for a first one. */
export function raisedText(a: Pick<RaisedAlert, 'count' | 'firstSeen'>): string {
  return a.count > 1
    ? `${formatCount(a.count)} times since ${formatDateTime(a.firstSeen)}`
    : `Raised ${formatDateTime(a.firstSeen)}`;
}

function AlertRow({ alert }: { alert: RaisedAlert }) {
  const { pathname } = useLocation();
  const here = new URL(alert.path, window.location.origin).pathname === pathname;
  return (
    <li className="flex flex-col gap-1.5 p-3 text-sm" data-testid="alert-row">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={alert.kind === 'test' ? 'secondary' : 'warning'} className="whitespace-normal">
          {ALERT_KIND_TITLES[alert.kind]}
        </Badge>
        <span className="text-xs text-muted-foreground">Last seen {formatDateTime(alert.lastSeen)}</span>
      </div>
      <p className="break-words">{alert.summary}</p>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <span data-testid="alert-count">{raisedText(alert)}</span>
        {here ? null : (
          <Link to={alert.path} className="font-medium text-primary underline-offset-4 hover:underline">
            See what it is about
          </Link>
        )}
      </div>
    </li>
  );
}
