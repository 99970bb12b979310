// 'Trusted Types readiness': what enforcing `require-trusted-types-for 'script'` would block on the crawled
// pages (the crawl's dry run, shared/src/trusted-types/dry-run.ts): the readiness in words, each place in the
// code that hands a plain string to a DOM XSS sink (sink, script and line, the start of the value, the
// pages), and the policy names the pages created, which a `trusted-types` directive must list.
import type { TrustedTypesDryRun, TrustedTypesReadiness } from '@csp/shared/schemas/trusted-types';
import { CircleCheck, FileQuestion, type LucideIcon, ShieldAlert, TriangleAlert } from 'lucide-react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { ListTable } from '@/components/ui/list-table';
import { cn } from '@/lib/class-names';
import { countOf, formatCount, pathOf } from '@/lib/format';

const READINESS: Record<
  TrustedTypesReadiness,
  { label: string; badge: BadgeVariant; icon: LucideIcon; tile: string }
> = {
  ready: {
    label: 'Ready',
    badge: 'success',
    icon: CircleCheck,
    tile: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
  },
  'default-policy': {
    label: 'Needs a default policy',
    badge: 'warning',
    icon: TriangleAlert,
    tile: 'bg-amber-50 text-amber-600 ring-amber-100',
  },
  far: {
    label: 'Far',
    badge: 'destructive',
    icon: ShieldAlert,
    tile: 'bg-red-50 text-red-600 ring-red-100',
  },
};

/** The script as a reader tells it apart: its path on the analysed site, its host and path elsewhere. */
function scriptLabel(script: string, siteUrl: string): string {
  try {
    const u = new URL(script);
    return u.origin === new URL(siteUrl).origin ? pathOf(script) : `${u.host}${u.pathname}`;
  } catch {
    return script;
  }
}

function verdict(run: TrustedTypesDryRun): string {
  const places = countOf(run.sinkCount, 'place');
  switch (run.readiness) {
    case 'ready':
      return `No crawled page handed a plain string to a DOM XSS sink: enforcing Trusted Types would break nothing the crawl saw.`;
    case 'default-policy':
      return `${places} in the code ${run.sinkCount === 1 ? 'passes' : 'pass'} plain strings to a sink. A default policy, or fixing ${run.sinkCount === 1 ? 'this line' : 'these lines'}, makes the site ready.`;
    case 'far':
      return `${places} in the code pass plain strings to sinks: moving them to Trusted Types policies is a project of its own.`;
  }
}

export function TrustedTypesCard({
  trustedTypes,
  siteUrl,
}: {
  /** The analysis' dry run; null or absent on analyses from before it was measured. */
  trustedTypes: TrustedTypesDryRun | null | undefined;
  /** The analysed URL (scripts of its origin are shown by their path). */
  siteUrl: string;
}) {
  return (
    <Card data-testid="trusted-types">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <ShieldAlert className="size-4 text-primary" aria-hidden="true" />
          Trusted Types readiness
          {trustedTypes ? (
            <Badge variant={READINESS[trustedTypes.readiness].badge} data-testid="trusted-types-readiness">
              {READINESS[trustedTypes.readiness].label}
            </Badge>
          ) : null}
        </CardTitle>
        <CardDescription>
          Trusted Types stop DOM XSS where it happens: with{' '}
          <code className="font-mono text-xs">require-trusted-types-for 'script'</code>, sinks such as{' '}
          <code className="font-mono text-xs">innerHTML</code> and{' '}
          <code className="font-mono text-xs">eval</code> refuse plain strings. The crawl tried it
          report-only; send it report-only to your visitors first too.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {trustedTypes ? (
          <DryRun run={trustedTypes} siteUrl={siteUrl} />
        ) : (
          <EmptyState
            icon={FileQuestion}
            title="Not measured for this analysis"
            description="Analyses from before the Trusted Types dry run have no readiness: run a new analysis to measure it."
          />
        )}
      </CardContent>
    </Card>
  );
}

function DryRun({ run, siteUrl }: { run: TrustedTypesDryRun; siteUrl: string }) {
  const { icon: Icon, tile } = READINESS[run.readiness];
  const unlisted = run.sinkCount - run.sinks.length;
  return (
    <div className="flex flex-col gap-5">
      <div className="flex gap-3">
        <span
          className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg ring-1', tile)}
          aria-hidden="true"
        >
          <Icon className="size-4" />
        </span>
        <div className="flex min-w-0 flex-col gap-1 text-sm">
          <p className="font-medium text-foreground" data-testid="trusted-types-verdict">
            {verdict(run)}
          </p>
          <p className="text-muted-foreground">Measured on {countOf(run.pagesChecked, 'crawled page')}.</p>
        </div>
      </div>

      {run.sinks.length > 0 ? (
        <div className="flex flex-col gap-2">
          <ListTable
            testId="trusted-types-sinks"
            head={
              <>
                <th scope="col" className="py-2 pr-3 pl-5 sm:pl-6">
                  Sink
                </th>
                <th scope="col" className="px-3 py-2">
                  Script and line
                </th>
                <th scope="col" className="hidden px-3 py-2 md:table-cell">
                  Value (start)
                </th>
                <th scope="col" className="hidden py-2 pr-5 pl-3 text-right sm:table-cell sm:pr-6">
                  Pages
                </th>
              </>
            }
          >
            {run.sinks.map((s) => (
              <tr
                key={`${s.sink} ${s.script} ${s.line}`}
                className="align-top"
                data-testid="trusted-types-sink"
              >
                <td className="py-2.5 pr-3 pl-5 font-mono text-xs font-semibold whitespace-nowrap text-foreground sm:pl-6">
                  {s.sink}
                  {/* Phones: the value under the sink (its column is hidden). */}
                  {s.sample ? (
                    <code className="mt-1 block font-normal whitespace-normal text-muted-foreground [overflow-wrap:anywhere] md:hidden">
                      {s.sample}
                    </code>
                  ) : null}
                </td>
                <td
                  className="px-3 py-2.5 font-mono text-xs [overflow-wrap:anywhere]"
                  title={s.script ?? undefined}
                >
                  {s.script ? scriptLabel(s.script, siteUrl) : 'unknown script'}
                  {s.line !== null ? `:${s.line}` : ''}
                  {/* Phones: the pages under the script (their column is hidden). */}
                  <span className="mt-1 block font-sans text-muted-foreground sm:hidden">
                    on <PagesNamed pages={s.pages} pageCount={s.pageCount} />
                  </span>
                </td>
                <td className="hidden max-w-xs px-3 py-2.5 md:table-cell">
                  <code className="line-clamp-2 font-mono text-xs text-muted-foreground [overflow-wrap:anywhere]">
                    {s.sample || '—'}
                  </code>
                </td>
                <td className="hidden py-2.5 pr-5 pl-3 text-right text-xs whitespace-nowrap text-muted-foreground sm:table-cell sm:pr-6">
                  <PagesNamed pages={s.pages} pageCount={s.pageCount} />
                </td>
              </tr>
            ))}
          </ListTable>
          {unlisted > 0 ? (
            <p className="text-xs text-muted-foreground">
              …and {countOf(unlisted, 'more place')} not listed.
            </p>
          ) : null}
        </div>
      ) : null}

      <div className="flex flex-col gap-1.5 text-sm" data-testid="trusted-types-policies">
        <p className="font-medium text-foreground">Policies the pages created</p>
        {run.policyNames.length > 0 ? (
          <>
            <ul className="flex flex-wrap gap-1.5" aria-label="Trusted Types policy names">
              {run.policyNames.map((name) => (
                <li key={name}>
                  <Badge variant="secondary" className="font-mono">
                    {name}
                  </Badge>
                </li>
              ))}
            </ul>
            <p className="text-xs text-muted-foreground">
              A <code className="font-mono">trusted-types</code> directive must list them, or creating them
              fails once enforced.
              {run.policyNames.includes('default')
                ? ' The default policy already receives the strings of the sinks it handles.'
                : null}
            </p>
          </>
        ) : (
          <p className="text-muted-foreground">No page created a Trusted Types policy.</p>
        )}
      </div>
    </div>
  );
}

/** The first page a use was seen on, and how many more (all the listed ones in its tooltip). */
function PagesNamed({ pages, pageCount }: { pages: string[]; pageCount: number }) {
  return (
    <span title={pages.join('\n')}>
      <span className="font-mono">{pages[0] ? pathOf(pages[0]) : ''}</span>
      {pageCount > 1 ? ` +${formatCount(pageCount - 1)}` : null}
    </span>
  );
}
