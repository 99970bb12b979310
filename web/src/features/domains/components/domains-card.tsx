// Dashboard "Your Domains": Add Domain, an empty state, and one row per domain (name, url,
// Active/Inactive, its watch: scripts pending review and the last run's drift, count of scans, link to
// /domains/{id}). The whole row opens the domain.
import type { Domain } from '@csp/shared/schemas/domain';
import type { DomainWatch } from '@csp/shared/schemas/domain-watch';
import { Globe, Plus, Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ListTable, ROW_LINK_STRETCH, RowChevronLink } from '@/components/ui/list-table';
import { cn } from '@/lib/class-names';
import { countOf, formatCount, formatDate } from '@/lib/format';

export function DomainStatusBadge({ isActive }: { isActive: boolean }) {
  return isActive ? (
    <Badge variant="success">
      <span className="size-1.5 rounded-full bg-emerald-500" aria-hidden="true" />
      Active
    </Badge>
  ) : (
    <Badge variant="secondary">
      <span className="size-1.5 rounded-full bg-slate-400" aria-hidden="true" />
      Inactive
    </Badge>
  );
}

/** A domain of the team's owner, seen read-only by a member. */
export function TeamBadge() {
  return (
    <Badge variant="outline" title="Your team owner's domain: you can see it, only the owner changes it">
      <Users className="size-3" aria-hidden="true" />
      Team
    </Badge>
  );
}

function ScanCount({ count }: { count: number }) {
  return (
    <span className="text-sm tabular-nums">
      <span className="font-medium">{formatCount(count)}</span>
      <span className="text-muted-foreground"> {count === 1 ? 'scan' : 'scans'}</span>
    </span>
  );
}

const DRIFT_BADGES: Record<
  NonNullable<DomainWatch['lastDrift']>['state'],
  { label: string; variant: BadgeVariant; title: string }
> = {
  matches: { label: 'No drift', variant: 'success', title: 'The last run found the saved policy served' },
  differs: {
    label: 'Drift',
    variant: 'destructive',
    title: 'The last run found a policy other than the saved one',
  },
  'none-served': {
    label: 'No policy served',
    variant: 'warning',
    title: 'The last run found no policy served',
  },
};

/** Scripts waiting for review and the last run's drift; nothing before the domain's first watched run. */
function WatchBadges({ watch }: { watch: DomainWatch | undefined }) {
  if (!watch || (watch.pendingScripts === 0 && !watch.lastDrift)) return null;
  const drift = watch.lastDrift ? DRIFT_BADGES[watch.lastDrift.state] : null;
  return (
    <>
      {watch.pendingScripts > 0 ? (
        <Badge variant="warning" title={`${countOf(watch.pendingScripts, 'script')} pending review`}>
          {formatCount(watch.pendingScripts)} to review
        </Badge>
      ) : null}
      {drift ? (
        <Badge variant={drift.variant} title={drift.title}>
          {drift.label}
        </Badge>
      ) : null}
    </>
  );
}

export function DomainsCard({
  domains,
  error,
}: {
  /** `watch`: from the list (GET /api/domains); absent on a domain just created. */
  domains: (Domain & { watch?: DomainWatch })[];
  error?: Error | null;
}) {
  return (
    <Card className="flex flex-col">
      <CardHeader
        actions={
          <Link to="/domains/new" className={buttonVariants({ size: 'sm' })}>
            <Plus aria-hidden="true" />
            Add Domain
          </Link>
        }
      >
        <CardTitle className="flex items-center gap-2">
          <Globe className="size-4 text-primary" aria-hidden="true" />
          Your Domains
        </CardTitle>
        <CardDescription>Websites you crawl and protect with a generated policy.</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        {error ? (
          <p
            className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
            role="alert"
          >
            Could not load your domains ({error.message}).
          </p>
        ) : domains.length === 0 ? (
          <EmptyState
            icon={Globe}
            title="No domains yet"
            description="Add a website to run your first crawl and generate its Content Security Policy."
            action={
              <Link to="/domains/new" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
                <Plus aria-hidden="true" />
                Add Your First Domain
              </Link>
            }
          />
        ) : (
          <ListTable
            head={
              <>
                <th scope="col" className="w-full py-2.5 pr-3 pl-5 font-medium sm:pl-6">
                  Domain
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium sm:table-cell">
                  Status
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium sm:table-cell">
                  Watch
                </th>
                <th scope="col" className="hidden px-3 py-2.5 text-right font-medium sm:table-cell">
                  Scans
                </th>
                <th scope="col" className="hidden px-3 py-2.5 font-medium md:table-cell">
                  Last scanned
                </th>
                <th scope="col" className="py-2.5 pr-5 pl-3 sm:pr-6">
                  <span className="sr-only">Open</span>
                </th>
              </>
            }
          >
            {domains.map((domain) => (
              <tr
                key={domain.id}
                className="group relative transition-colors hover:bg-slate-50/70"
                data-testid="domain-row"
              >
                <td className="max-w-0 py-3 pr-3 pl-5 sm:pl-6">
                  <Link
                    to={`/domains/${domain.id}`}
                    className={cn(
                      'block truncate font-medium text-foreground group-hover:text-primary',
                      ROW_LINK_STRETCH,
                    )}
                  >
                    {domain.name}
                  </Link>
                  <span className="block truncate font-mono text-xs text-muted-foreground">{domain.url}</span>
                  <span className="mt-1.5 flex flex-wrap items-center gap-2 sm:hidden">
                    <DomainStatusBadge isActive={domain.isActive} />
                    {domain.access === 'team' ? <TeamBadge /> : null}
                    <ScanCount count={domain.totalScans} />
                    <WatchBadges watch={domain.watch} />
                  </span>
                </td>
                <td className="hidden px-3 py-3 sm:table-cell">
                  <span className="flex flex-wrap items-center gap-1.5">
                    <DomainStatusBadge isActive={domain.isActive} />
                    {domain.access === 'team' ? <TeamBadge /> : null}
                  </span>
                </td>
                <td className="hidden px-3 py-3 sm:table-cell" data-testid="domain-watch">
                  <span className="flex flex-wrap items-center gap-1.5">
                    <WatchBadges watch={domain.watch} />
                  </span>
                </td>
                <td className="hidden px-3 py-3 text-right whitespace-nowrap sm:table-cell">
                  <ScanCount count={domain.totalScans} />
                </td>
                <td className="hidden px-3 py-3 whitespace-nowrap text-muted-foreground md:table-cell">
                  {formatDate(domain.lastScanned, 'Never')}
                </td>
                <td className="py-3 pr-5 pl-3 text-right sm:pr-6">
                  <RowChevronLink to={`/domains/${domain.id}`} label={`Open ${domain.name}`} />
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </CardContent>
    </Card>
  );
}
