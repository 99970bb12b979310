// Domain screen: the domain's name, URL, Active/Inactive badge, total scans and last-scanned date, with the
// screen's actions on the right.
import type { Domain } from '@csp/shared/schemas/domain';
import { ExternalLink, Globe } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { formatCount, formatDate, formatDateTime } from '@/lib/format';
import { DomainStatusBadge, TeamBadge } from './domains-card';

export function DomainOverviewCard({ domain, actions }: { domain: Domain; actions?: ReactNode }) {
  return (
    <Card className="flex flex-col" data-testid="domain-overview">
      <div className="flex flex-col gap-4 p-5 sm:flex-row sm:items-start sm:justify-between sm:p-6">
        <div className="flex min-w-0 items-start gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-primary-soft text-primary ring-1 ring-primary/10">
            <Globe className="size-6" aria-hidden="true" />
          </span>
          <div className="flex min-w-0 flex-col gap-1.5">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="text-xl font-semibold tracking-tight break-words text-foreground sm:text-2xl">
                {domain.name}
              </h1>
              <DomainStatusBadge isActive={domain.isActive} />
              {domain.access === 'team' ? <TeamBadge /> : null}
            </div>
            <a
              href={domain.url}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex max-w-full items-center gap-1.5 self-start rounded font-mono text-sm text-muted-foreground hover:text-primary"
            >
              <span className="truncate">{domain.url}</span>
              <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </div>
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </div>
      <dl className="grid divide-y divide-border border-t border-border sm:grid-cols-3 sm:divide-x sm:divide-y-0">
        <Fact label="Total scans" value={formatCount(domain.totalScans)} />
        <Fact
          label="Last scanned"
          value={formatDate(domain.lastScanned, 'Never')}
          title={domain.lastScanned ? formatDateTime(domain.lastScanned) : undefined}
        />
        <Fact label="Added" value={formatDate(domain.createdAt)} />
      </dl>
    </Card>
  );
}

function Fact({ label, value, title }: { label: string; value: string; title?: string | undefined }) {
  return (
    <div className="flex min-w-0 items-center justify-between gap-4 px-5 py-2.5 sm:flex-col sm:items-start sm:justify-start sm:gap-1 sm:px-6 sm:py-4">
      <dt className="truncate text-sm text-muted-foreground sm:text-xs sm:font-medium">{label}</dt>
      <dd className="truncate text-sm font-semibold tabular-nums text-foreground sm:text-base" title={title}>
        {value}
      </dd>
    </div>
  );
}
